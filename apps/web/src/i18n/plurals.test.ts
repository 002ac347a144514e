import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import ar from './locales/ar.json';
import cs from './locales/cs.json';
import en from './locales/en.json';
import hk from './locales/hk.json';
import ru from './locales/ru.json';

/** The app's i18next settings, with the locale files it ships. */
async function translator(language: string) {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    fallbackLng: false,
    resources: {
      ar: { translation: ar },
      cs: { translation: cs },
      en: { translation: en },
      hk: { translation: hk },
      ru: { translation: ru },
    },
    interpolation: { escapeValue: false },
  });
  return (count: number) => instance.t('order.lots_value', { count, lots: String(count) });
}

describe('a number of lots agrees with its noun', () => {
  it('in Russian: one, few, many, and fractions', async () => {
    const lots = await translator('ru');
    expect([1, 2, 5, 21, 100, 0.01].map(lots)).toEqual(['1 лот', '2 лота', '5 лотов', '21 лот', '100 лотов', '0.01 лота']);
  });

  it('in Arabic: zero, one, two, few, many and other', async () => {
    const lots = await translator('ar');
    expect([0, 1, 2, 3, 11, 100].map(lots)).toEqual(['0 لوت', 'لوت واحد', 'لوتان', '3 لوتات', '11 لوتًا', '100 لوت']);
  });

  it('in Czech and English', async () => {
    expect([1, 3, 0.5, 5].map(await translator('cs'))).toEqual(['1 lot', '3 loty', '0.5 lotu', '5 lotů']);
    expect([1, 2, 0.01].map(await translator('en'))).toEqual(['1 lot', '2 lots', '0.01 lots']);
  });

  it('and a language without plurals keeps its one form', async () => {
    expect([1, 2, 5].map(await translator('hk'))).toEqual(['1 手', '2 手', '5 手']);
  });
});
