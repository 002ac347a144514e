import { inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { settings } from '../../db/schema.js';
import { DEFAULT_SETTINGS, type SettingKey } from '../../db/seed.js';
import type { Operator } from '../../http/operator.js';
import type { EventBus } from '../../realtime/bus.js';
import type { AuditService } from '../audit/service.js';

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
   * An operator's change: the old values are read under lock, the new ones written and one audit row per
   * key recorded, in one transaction; then every process is told, as `set` does.
   */
  async update(changes: Partial<Record<SettingKey, string>>, by: Operator, ip: string): Promise<void> {
    const keys = Object.keys(changes) as SettingKey[];
    if (keys.length === 0) return;
    await this.deps.db.transaction(async (tx) => {
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
            after: { value: changes[key] },
            ip,
          },
          tx,
        );
      }
    });
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
