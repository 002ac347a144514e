import { describe, expect, it } from 'vitest';
import { SETTING_RULES } from './backoffice-catalogue.js';

/** The back office draws each setting's editor from its rule: what the editor offers, the schema takes. */
describe('SETTING_RULES', () => {
  it.each(Object.entries(SETTING_RULES))('%s: its editor offers only what its schema accepts', (_, { editor, schema }) => {
    if (editor.type === 'select') for (const option of editor.options) expect(schema.safeParse(option).success).toBe(true);
    if (editor.type === 'flag')
      expect(['0', '1', '2'].map((value) => schema.safeParse(value).success)).toEqual([true, true, false]);
    if (editor.type === 'decimal') {
      expect(schema.safeParse(`1.${'5'.repeat(editor.decimals)}`).success).toBe(true);
      expect(schema.safeParse(`1.${'5'.repeat(editor.decimals + 1)}`).success).toBe(false);
    }
    if (editor.type === 'integer') {
      expect(schema.safeParse('12').success).toBe(true);
      expect(['1.5', '-1', '1e3', '012', ' 1'].some((value) => schema.safeParse(value).success)).toBe(false);
    }
    if (editor.type === 'text') {
      expect(schema.safeParse('').success).toBe(true);
      expect(schema.safeParse('a'.repeat(editor.max + 1)).success).toBe(false);
    }
  });

  it('takes the copy-trading counts as whole numbers from 0', () => {
    for (const key of ['copy_min_days', 'copy_min_trades', 'copy_fee_max_pct', 'copy_public_delay_minutes'] as const) {
      expect(SETTING_RULES[key].schema.safeParse('0').success, key).toBe(true);
      expect(SETTING_RULES[key].schema.safeParse('14.5').success, key).toBe(false);
    }
  });
});
