import { ZInstrumentChange, type InstrumentAdminView } from '@pipwise/domain';
import { useTranslation } from 'react-i18next';
import { ENABLED_FIELD, maxNotBelowMin, SORT_FIELD } from '../components/CatalogueRules';
import { CatalogueTable, type CatalogueField } from '../components/CatalogueTable';

/** Leverages offered in the picker; others can be typed. */
const LEVERAGE_SUGGESTIONS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 300, 400, 500];

export default function Instruments() {
  const { t } = useTranslation('catalogue');
  const fields: CatalogueField<InstrumentAdminView>[] = [
    { name: 'name', kind: 'text', required: true, column: true },
    // The spread is a price: no more decimals than the instrument quotes.
    {
      name: 'spread',
      kind: 'decimal',
      decimals: (row) => row.price_precision ?? 10,
      required: true,
      column: true,
    },
    {
      name: 'leverages',
      kind: 'integers',
      required: true,
      suggestions: LEVERAGE_SUGGESTIONS,
      column: true,
    },
    { name: 'fee_rate', kind: 'decimal', required: true, column: true },
    { name: 'min_lots', kind: 'decimal', required: true, column: true },
    { name: 'lot_step', kind: 'decimal', required: true, column: true },
    {
      name: 'max_lots',
      kind: 'decimal',
      required: true,
      column: true,
      rules: [maxNotBelowMin(t('validation.max_below_min'), 'min_lots')],
    },
    SORT_FIELD,
    ENABLED_FIELD,
  ];
  return (
    <CatalogueTable<InstrumentAdminView>
      area="instruments"
      path="/instruments"
      canCreate={false}
      fields={fields}
      schemas={{ change: ZInstrumentChange }}
      fixedColumns={[{ key: 'code', dataIndex: 'code', title: t('instruments.code'), fixed: 'left' }]}
    />
  );
}
