import { LANGUAGES, ZCategoryChange, ZCategoryCreate, type CategoryAdminView } from '@pipwise/domain';
import { useTranslation } from 'react-i18next';
import { SORT_FIELD } from '../components/CatalogueRules';
import { CatalogueTable } from '../components/CatalogueTable';

export default function Categories() {
  const { t, i18n } = useTranslation('catalogue');
  /** The name in the operator's language (hk or en), else the first one there is. */
  const nameOf = (names: unknown) => {
    const map = (names ?? {}) as Record<string, string>;
    return map[i18n.language] || map.en || Object.values(map)[0] || '—';
  };
  return (
    <CatalogueTable<CategoryAdminView>
      area="categories"
      path="/categories"
      defaults={{ sort: 0, names: {} }}
      schemas={{ create: ZCategoryCreate, change: ZCategoryChange }}
      fields={[
        { name: 'slug', kind: 'text', required: true, column: true },
        SORT_FIELD,
        {
          name: 'names',
          kind: 'names',
          // The app shows a category in any of the 18 languages, so every one needs its name.
          languages: LANGUAGES,
          required: true,
          column: true,
          render: (names) => nameOf(names),
        },
      ]}
      fixedColumns={[{ key: 'id', dataIndex: 'id', title: t('field.id') }]}
    />
  );
}
