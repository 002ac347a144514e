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
    if (editor.type === 'text') {
      expect(schema.safeParse('').success).toBe(true);
      expect(schema.safeParse('a'.repeat(editor.max + 1)).success).toBe(false);
    }
  });
});
