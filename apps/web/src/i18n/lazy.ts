import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, i18n } from './index';

type Messages = Record<string, unknown>;

/**
 * Messages that come with the screen or sheet showing them, each bundle its own i18next namespace with a
 * file per language (`lazy/<bundle>/<language>.json`): the first screen carries none of them.
 */
const bundles = import.meta.glob<Messages>('./lazy/*/*.json', { import: 'default' });

export type LazyBundle = 'signup' | 'modes' | 'risk' | 'copy';

const loading = new Map<string, Promise<void>>();

function load(bundle: LazyBundle, language: string): Promise<void> {
  const id = `${bundle}/${language}`;
  let loaded = loading.get(id);
  if (!loaded) {
    const loader = bundles[`./lazy/${id}.json`];
    if (!loader) throw new Error(`no ${bundle} messages for ${language}`);
    loaded = loader().then((messages) => void i18n.addResourceBundle(language, bundle, messages, true, true));
    loading.set(id, loaded);
  }
  return loaded;
}

/** `useTranslation` of a lazy bundle: suspends until the reader's language of it has arrived. */
export function useLazyTranslation(bundle: LazyBundle) {
  const translation = useTranslation(bundle);
  use(load(bundle, currentLanguage()));
  return translation;
}
