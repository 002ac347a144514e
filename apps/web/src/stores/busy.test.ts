import { beforeEach, describe, expect, it } from 'vitest';
import { useBusy } from './busy';

describe('the wait for calls the person made', () => {
  beforeEach(() => useBusy.setState({ count: 0 }));

  it('lasts until the last of overlapping calls ends', () => {
    const first = useBusy.getState().begin();
    const second = useBusy.getState().begin();
    first();
    expect(useBusy.getState().count).toBe(1);
    second();
    expect(useBusy.getState().count).toBe(0);
  });

  it('counts a call once however often its end is reported (a finally after a catch)', () => {
    const first = useBusy.getState().begin();
    const second = useBusy.getState().begin();
    first();
    first();
    expect(useBusy.getState().count).toBe(1);
    second();
    expect(useBusy.getState().count).toBe(0);
  });
});
