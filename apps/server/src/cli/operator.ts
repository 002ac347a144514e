import { AppError, isOperatorRole, OPERATOR_ROLES } from '@pipwise/domain';
import { z } from 'zod';
import { systemClock } from '../clock.js';
import { translate } from '../i18n/catalog.js';
import { AuditService } from '../modules/audit/service.js';
import { OperatorsService } from '../modules/operators/service.js';
import { deriveKey } from '../secret.js';
import { fail, loadCliConfig, readArgs, runAsScript, withDatabase, type CliIo } from './command.js';

/**
 * npm run operator -- add --email E --role R | list | disable --email E | enable --email E | reset --email E
 * Works on the server's database: DATABASE_URL (while the server runs) or DATA_DIR (PGlite: the server
 * must be stopped, it allows one process). `add` and `reset` print one JSON line
 * {"email","role","link","expires_at"}: a one-time enrolment link (the admin app's path) where the
 * operator sets their own password and adds their own TOTP secret, so nobody else ever holds both; `list`
 * prints one JSON line per operator. Every change is audited with the actor `cli`.
 */
const USAGE = `usage: npm run operator -- <command>
  add --email <E> --role <${OPERATOR_ROLES.join('|')}>   new operator; prints {"email","role","link","expires_at"}
  list                                       one JSON line per operator
  disable --email <E>                        disables and ends their sessions
  enable --email <E>
  reset --email <E>                          a new enrolment link (JSON line); ends their sessions, forgets failed logins
  Database: DATABASE_URL, or DATA_DIR (embedded PGlite: stop the server first).`;

const CLI = { actor: 'cli' };

export async function operatorMain(io: CliIo) {
  const args = readArgs(io, USAGE, { email: { type: 'string' }, role: { type: 'string' } });
  const [command, ...extra] = args.positionals;
  if (!command || extra.length > 0) fail(USAGE, 2);
  const { email, role } = args.values;
  if (command === 'list' ? email || role : !email) fail(USAGE, 2);
  if (command === 'add' ? !role : role) fail(USAGE, 2);
  if (role !== undefined && !isOperatorRole(role)) fail(`unknown role "${role}"; one of ${OPERATOR_ROLES.join(', ')}`, 2);
  if (command === 'add' && !z.email().safeParse(email?.trim() ?? '').success) fail(`"${email}" is not an e-mail address`, 2);
  if (!['add', 'list', 'disable', 'enable', 'reset'].includes(command)) fail(`unknown command "${command}"\n${USAGE}`, 2);

  const config = loadCliConfig(io, { appSecret: true });
  await withDatabase(io, config, async (database) => {
    try {
      const audit = new AuditService({ db: database.db, clock: systemClock, key: deriveKey(config, 'audit-chain') });
      const operators = new OperatorsService({ db: database.db, clock: systemClock, config, audit });
      const idOf = async (address: string) => (await operators.find(address))?.id ?? fail(`no operator with e-mail ${address}`);
      const line = (value: unknown) => io.out(JSON.stringify(value));
      switch (command) {
        case 'add':
          line(await operators.add({ email: email!, role: role as (typeof OPERATOR_ROLES)[number] }, CLI));
          break;
        case 'list':
          for (const operator of await operators.list()) {
            const { id, email: address, role: current, disabled, createdBy, createdAt } = operator;
            line({ id, email: address, role: current, disabled, created_by: createdBy, created_at: createdAt });
          }
          break;
        case 'disable':
          await operators.disable(await idOf(email!), CLI);
          io.out(`disabled ${email}; their sessions are ended`);
          break;
        case 'enable':
          await operators.enable(await idOf(email!), CLI);
          io.out(`enabled ${email}`);
          break;
        case 'reset':
          line(await operators.reset(await idOf(email!), CLI));
          break;
      }
    } catch (error) {
      // The service's refusals (e-mail taken, last superadmin, …) in the operators' language.
      if (error instanceof AppError) fail(translate('en', error.key, error.params));
      throw error;
    }
  });
}

await runAsScript(import.meta.url, operatorMain);
