import { describe, expect, it } from 'vitest';
import { ZNewsInfoQuery, ZNewsListQuery } from './content.js';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe('news queries', () => {
  it('reads the query string, defaulting to page 1 of every category', () => {
    expect(ZNewsListQuery.parse({})).toEqual({ page: 1, category_id: 0 });
    expect(ZNewsListQuery.parse({ page: '3', category_id: '2', timestamp: '1' })).toEqual({ page: 3, category_id: 2 });
    expect(ZNewsInfoQuery.parse({ id: '7' })).toEqual({ id: 7 });
  });

  it.each([
    [ZNewsListQuery, { page: '0' }, 'page_invalid'],
    [ZNewsListQuery, { page: 'x' }, 'page_invalid'],
    [ZNewsListQuery, { category_id: '-1' }, 'news_category_invalid'],
    [ZNewsListQuery, { category_id: '1.5' }, 'news_category_invalid'],
    [ZNewsInfoQuery, {}, 'news_id_invalid'],
    [ZNewsInfoQuery, { id: '0' }, 'news_id_invalid'],
    [ZNewsInfoQuery, { id: 'abc' }, 'news_id_invalid'],
  ] as const)('%#: refuses %o with %s', (schema, input, message) => {
    expect(firstMessage(schema.safeParse(input))).toBe(message);
  });
});
