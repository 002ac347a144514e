import { describe, expect, it } from 'vitest';
import {
  providerNicknameKey,
  ZCopyEditRequest,
  ZCopyFollowRequest,
  ZCopyPauseRequest,
  ZCopyProviderRequest,
  ZCopyProviderUpdate,
  ZCopyUnfollowRequest,
  ZProviderListQuery,
} from './copy.js';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe('becoming a provider', () => {
  it('takes a nickname, a bio over several lines and a fee, from JSON or a form', () => {
    expect(ZCopyProviderRequest.parse({ nickname: '  Trend  Rider ', bio: 'Line one\r\nLine two ', fee_pct: '15' })).toEqual({
      nickname: 'Trend Rider',
      bio: 'Line one\nLine two',
      fee_pct: 15,
    });
    expect(ZCopyProviderRequest.parse({ nickname: 'नमस्ते_7', bio: '', fee_pct: '' })).toEqual({
      nickname: 'नमस्ते_7',
      bio: '',
      fee_pct: 0,
    });
    expect(ZCopyProviderRequest.parse({ nickname: 'Ab' }).fee_pct).toBe(0);
  });

  it.each([
    [{ nickname: 'A' }, 'copy_nickname_invalid'],
    [{ nickname: 'x'.repeat(25) }, 'copy_nickname_invalid'],
    [{ nickname: 'bad<script>' }, 'copy_nickname_invalid'],
    [{ nickname: '-- __' }, 'copy_nickname_invalid'],
    [{ nickname: 'zero\u200Bwidth' }, 'copy_nickname_invalid'],
    [{ nickname: 42 }, 'copy_nickname_invalid'],
    [{ nickname: 'Good', bio: 'x'.repeat(281) }, 'field_too_long'],
    [{ nickname: 'Good', bio: 'tab\there' }, 'field_characters_invalid'],
    [{ nickname: 'Good', fee_pct: 101 }, 'copy_fee_invalid'],
    [{ nickname: 'Good', fee_pct: '12.5' }, 'copy_fee_invalid'],
    [{ nickname: 'Good', fee_pct: -1 }, 'copy_fee_invalid'],
  ])('refuses %j with %s', (body, message) => {
    expect(firstMessage(ZCopyProviderRequest.safeParse(body))).toBe(message);
  });

  it('makes nicknames that differ only in case or width the same name', () => {
    expect(providerNicknameKey('Alice')).toBe(providerNicknameKey('alice'));
    expect(providerNicknameKey('ＡＬＩＣＥ')).toBe(providerNicknameKey('alice'));
  });

  it('edits what is sent, clears a bio sent empty, and refuses an edit that sends nothing', () => {
    expect(ZCopyProviderUpdate.parse({ fee_pct: '0' })).toEqual({ fee_pct: 0 });
    expect(ZCopyProviderUpdate.parse({ nickname: '', bio: '', fee_pct: '' })).toEqual({ bio: '' });
    expect(firstMessage(ZCopyProviderUpdate.safeParse({ nickname: '', fee_pct: '' }))).toBe('copy_nothing_to_change');
  });
});

describe('following', () => {
  it('keeps the amount as exact text and the stop-loss as a whole percent', () => {
    expect(ZCopyFollowRequest.parse({ provider_id: '7', amount: 250.5, stop_loss_pct: '40' })).toEqual({
      provider_id: 7,
      amount: '250.5',
      stop_loss_pct: 40,
    });
  });

  it.each([
    [{ provider_id: 0 }, 'copy_provider_invalid'],
    [{ amount: '0' }, 'amount_invalid'],
    [{ amount: '10.123' }, 'amount_invalid'],
    [{ amount: '1e3' }, 'amount_invalid'],
    [{ stop_loss_pct: 9 }, 'copy_stop_loss_invalid'],
    [{ stop_loss_pct: 91 }, 'copy_stop_loss_invalid'],
    [{ stop_loss_pct: '33.3' }, 'copy_stop_loss_invalid'],
    [{ stop_loss_pct: undefined }, 'copy_stop_loss_invalid'],
  ])('refuses %j with %s', (change, message) => {
    const body = { provider_id: 7, amount: '100', stop_loss_pct: 50, ...change };
    expect(firstMessage(ZCopyFollowRequest.safeParse(body))).toBe(message);
  });

  it('edits the amount or the stop-loss, and refuses an edit that sends neither', () => {
    expect(ZCopyEditRequest.parse({ copy_id: '3', stop_loss_pct: '10', amount: '' })).toEqual({ copy_id: 3, stop_loss_pct: 10 });
    expect(firstMessage(ZCopyEditRequest.safeParse({ copy_id: 3, amount: '', stop_loss_pct: '' }))).toBe(
      'copy_nothing_to_change',
    );
    expect(firstMessage(ZCopyEditRequest.safeParse({ copy_id: 'x', amount: '5' }))).toBe('copy_id_invalid');
  });

  it('unfollows with close_all or keep, and pauses with 1 or resumes with 0', () => {
    expect(ZCopyUnfollowRequest.parse({ copy_id: 3, mode: 'keep' }).mode).toBe('keep');
    expect(firstMessage(ZCopyUnfollowRequest.safeParse({ copy_id: 3, mode: 'close' }))).toBe('copy_unfollow_mode_invalid');
    expect(firstMessage(ZCopyUnfollowRequest.safeParse({ copy_id: 3 }))).toBe('copy_unfollow_mode_invalid');
    expect(ZCopyPauseRequest.parse({ copy_id: '3', paused: '1' }).paused).toBe(1);
    expect(firstMessage(ZCopyPauseRequest.safeParse({ copy_id: 3, paused: true }))).toBe('copy_pause_invalid');
    expect(firstMessage(ZCopyPauseRequest.safeParse({ copy_id: 3, paused: 2 }))).toBe('copy_pause_invalid');
  });
});

describe('provider list query', () => {
  it('defaults to the first page sorted by return, without filters', () => {
    expect(ZProviderListQuery.parse({})).toEqual({ page: 1, sort: 'return' });
    expect(ZProviderListQuery.parse({ risk_max: '4', min_months: '0', sort: 'copiers', page: '2', timestamp: '1' })).toEqual({
      page: 2,
      risk_max: 4,
      min_months: 0,
      sort: 'copiers',
    });
  });

  it.each([
    [{ risk_max: '0' }, 'copy_risk_filter_invalid'],
    [{ risk_max: '11' }, 'copy_risk_filter_invalid'],
    [{ min_months: '-1' }, 'copy_months_filter_invalid'],
    [{ min_months: '121' }, 'copy_months_filter_invalid'],
    [{ sort: 'profit' }, 'copy_sort_invalid'],
    [{ sort: '__proto__' }, 'copy_sort_invalid'],
  ])('refuses %j with %s', (query, message) => {
    expect(firstMessage(ZProviderListQuery.safeParse(query))).toBe(message);
  });
});
