import { describe, expect, it } from 'vitest';
import { realNameErrors, type RealNameForm } from './validation';

const FRONT = 'AbCdEfGhIjKlMnOpQrStUv';
const REVERSE = 'ZyXwVuTsRqPoNmLkJiHgFe';
const t = (keys: string | string[]) => (Array.isArray(keys) ? keys[0]! : keys);
const form = (overrides: Partial<RealNameForm> = {}): RealNameForm => ({
  name: 'Chan Tai Man',
  card_id: 'A1234567',
  front_pic: FRONT,
  reverse_pic: REVERSE,
  ...overrides,
});

describe('real-name form checks', () => {
  it('accepts a name, an ID number and one image per side', () => {
    expect(realNameErrors(form(), t)).toEqual({});
    expect(realNameErrors(form({ card_id: '1101 0119-9003 071234' }), t)).toEqual({});
  });

  it('asks for the name and the ID number, each with its own message', () => {
    expect(realNameErrors(form({ name: '  ', card_id: '' }), t)).toEqual({
      name: 'identity.real_name_required',
      card_id: 'identity.card_id_required',
    });
  });

  it('refuses an ID number that is not 4 to 32 letters or digits', () => {
    expect(realNameErrors(form({ card_id: '12' }), t).card_id).toBe('identity.card_id_invalid');
    expect(realNameErrors(form({ card_id: 'A1234#' }), t).card_id).toBe('identity.card_id_invalid');
  });

  it('asks for the front and the back image under their own controls', () => {
    expect(realNameErrors(form({ front_pic: undefined, reverse_pic: undefined }), t)).toEqual({
      front: 'identity.front_pic_required',
      reverse: 'identity.reverse_pic_required',
    });
  });
});
