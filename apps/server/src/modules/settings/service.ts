import { dec, type PendingChangeView } from '@pipwise/domain';
import { inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Tx } from '../../db/client.js';
import { settings } from '../../db/schema.js';
import { DEFAULT_SETTINGS, type SettingKey } from '../../db/seed.js';
import type { Operator } from '../../http/operator.js';
import type { EventBus } from '../../realtime/bus.js';
import type { AuditService } from '../audit/service.js';
import type { ApprovalsService, ChangeSigner } from '../operators/approvals.js';

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /** Settings were written (by the back office or a test): every process drops its cached copy. */
    'settings.changed': { keys: SettingKey[] };
  }
}

/** Every operator setting, each its stored value or its default. Replaced, never changed, on a write. */
export type SettingValues = Readonly<Record<SettingKey, string>>;

const KEYS = Object.keys(DEFAULT_SETTINGS) as SettingKey[];

/**
 * Redis pub/sub drops what is published while a subscriber reconnects, so without any event the copy
 * is still read again after this long; a missed change is late by at most this, never lost.
 */
export const SETTINGS_MAX_AGE_MS = 60_000;

export interface SettingsDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  audit: AuditService;
  approvals: ApprovalsService;
}

const numberOf = (text: string) => (/^\d{1,13}(\.\d+)?$/.test(text) ? dec(text) : null);
/** Whether a number went up (an unreadable one counts as weakening: ask twice rather than never). */
const rises = (before: string, after: string) => {
  const [from, to] = [numberOf(before), numberOf(after)];
  return from === null || to === null || to.gt(from);
};

/**
 * The changes that weaken a control over money, by key: each takes effect only once a second
 * superadmin approves it. The stop-out level either way (lower lets losses run past the deposit, higher
 * closes traders' positions early); the demo balance up; the four-eyes threshold and the oldest rate a
 * withdrawal accepts up; the payout method's cool-down down; the KYC requirement off.
 */
const WEAKENS = new Map<string, (before: string, after: string) => boolean>([
  ['withdraw_four_eyes_above', rises],
  ['withdraw_rate_max_age_hours', rises],
  ['demo_start_balance', rises],
  ['payout_method_cooldown_hours', (before, after) => rises(after, before)],
  ['withdraw_requires_kyc', (before, after) => before !== '0' && after === '0'],
  ['stop_out_level', (before, after) => rises(before, after) || rises(after, before)],
]);

/** The keys of `changes` whose new value weakens a control, given the values in force. */
export function weakenedControls(changes: Partial<Record<SettingKey, string>>, current: SettingValues): SettingKey[] {
  return (Object.keys(changes) as SettingKey[]).filter((key) => WEAKENS.get(key)?.(current[key], changes[key]!) ?? false);
}

/**
 * The one reader and writer of operator settings. Readers on hot paths (every order reads the fee
 * type) get an in-memory copy; a write publishes `settings.changed`, on which every process on the
 * bus drops its copy, so a change applies everywhere without a restart.
 */
export class SettingsService {
  private current: { values: Promise<SettingValues>; readAt: number } | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: SettingsDeps) {
    this.unsubscribe = deps.bus.subscribe('settings.changed', () => this.invalidate());
    deps.approvals.register('settings', {
      apply: async (tx, payload, change, checker) => {
        const changes = payload.changes as Partial<Record<SettingKey, string>>;
        await this.write(tx, changes, checker, checker.ip, change.makerEmail);
        return null;
      },
      afterCommit: (payload) => this.announce(Object.keys(payload.changes as object) as SettingKey[]),
    });
  }

  /** All settings; read from the database only after a change or when the copy is too old. */
  values(): Promise<SettingValues> {
    const now = this.deps.clock.now().getTime();
    if (this.current && now - this.current.readAt < SETTINGS_MAX_AGE_MS) return this.current.values;
    // Cached while in flight, so concurrent readers share one query; a change meanwhile drops it.
    const values = this.read();
    const entry = { values, readAt: now };
    this.current = entry;
    values.catch(() => {
      if (this.current === entry) this.current = null;
    });
    return values;
  }

  async get(key: SettingKey): Promise<string> {
    return (await this.values())[key];
  }

  /**
   * A reader of something computed from the settings (parsed numbers, say), computed once per copy of
   * the settings rather than on every call.
   */
  derived<T>(compute: (values: SettingValues) => T): () => Promise<T> {
    let memo: { from: SettingValues; value: T } | null = null;
    return async () => {
      const values = await this.values();
      if (memo?.from !== values) memo = { from: values, value: compute(values) };
      return memo.value;
    };
  }

  /** Writes settings and tells every process, this one included, to read them again. */
  async set(changes: Partial<Record<SettingKey, string>>): Promise<void> {
    const rows = Object.entries(changes).map(([key, value]) => ({ key, value }));
    if (rows.length === 0) return;
    await this.deps.db
      .insert(settings)
      .values(rows)
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
    this.invalidate();
    this.deps.bus.publish('settings.changed', { keys: rows.map((row) => row.key as SettingKey) });
  }

  /**
   * A superadmin's change: applied at once, unless one of its keys weakens a control (`weakenedControls`),
   * when the whole change waits for a second superadmin (`pending`, as operators read it) and nothing is
   * written yet.
   */
  async change(changes: Partial<Record<SettingKey, string>>, by: ChangeSigner): Promise<{ pending: PendingChangeView | null }> {
    const keys = Object.keys(changes) as SettingKey[];
    if (keys.length === 0) return { pending: null };
    const weakened = weakenedControls(changes, await this.read());
    if (weakened.length > 0) {
      const proposed = await this.deps.approvals.propose('settings', { changes, weakened }, by);
      return { pending: this.deps.approvals.present(proposed) };
    }
    await this.update(changes, by, by.ip ?? '');
    return { pending: null };
  }

  /**
   * An operator's change: the old values are read under lock, the new ones written and one audit row per
   * key recorded, in one transaction; then every process is told, as `set` does.
   */
  async update(changes: Partial<Record<SettingKey, string>>, by: Operator, ip: string): Promise<void> {
    const keys = Object.keys(changes) as SettingKey[];
    if (keys.length === 0) return;
    await this.deps.db.transaction((tx) => this.write(tx, changes, by, ip, null));
    this.announce(keys);
  }

  /** Writes the values with one audit row per key (old and new value; the maker when a second operator approved). */
  private async write(
    tx: Tx,
    changes: Partial<Record<SettingKey, string>>,
    by: Operator,
    ip: string | null,
    maker: string | null,
  ) {
    const keys = Object.keys(changes) as SettingKey[];
    const rows = await tx.select().from(settings).where(inArray(settings.key, keys)).for('update');
    const before = new Map(rows.map((row) => [row.key, row.value]));
    await tx
      .insert(settings)
      .values(keys.map((key) => ({ key, value: changes[key]! })))
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
    for (const key of keys) {
      await this.deps.audit.record(
        {
          by,
          action: 'setting.update',
          targetType: 'setting',
          targetId: key,
          before: { value: before.get(key) ?? DEFAULT_SETTINGS[key] },
          after: maker === null ? { value: changes[key] } : { value: changes[key], maker },
          ip,
        },
        tx,
      );
    }
  }

  private announce(keys: SettingKey[]) {
    this.invalidate();
    this.deps.bus.publish('settings.changed', { keys });
  }

  stop() {
    this.unsubscribe();
  }

  private invalidate() {
    this.current = null;
  }

  private async read(): Promise<SettingValues> {
    const rows = await this.deps.db.select().from(settings).where(inArray(settings.key, KEYS));
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    return Object.fromEntries(KEYS.map((key) => [key, stored.get(key) ?? DEFAULT_SETTINGS[key]])) as SettingValues;
  }
}
