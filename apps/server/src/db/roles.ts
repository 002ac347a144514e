/**
 * The least-privilege role a server connects as on PostgreSQL: everything it needs on every table,
 * but on `audit_log` only INSERT and SELECT. UPDATE, DELETE and TRUNCATE are refused before the
 * append-only trigger is even reached, and a role that does not own the table cannot ALTER it
 * (DISABLE TRIGGER) either. Run by the tables' owner after every upgrade (`npm run db:roles`), since
 * grants on ALL TABLES cover only the tables that exist.
 */
export function leastPrivilegeGrants(role: string): string[] {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role)) throw new Error(`"${role}" is not a plain role name (a-z, 0-9, _)`);
  const who = `"${role}"`;
  return [
    `GRANT USAGE ON SCHEMA public, drizzle TO ${who}`,
    `REVOKE CREATE ON SCHEMA public FROM ${who}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${who}`,
    `REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_log FROM ${who}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${who}`,
    `GRANT SELECT ON drizzle.__drizzle_migrations TO ${who}`,
  ];
}
