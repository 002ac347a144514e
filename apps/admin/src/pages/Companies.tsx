import { CompanyStatus, CompanyType, ZCompanyChange, ZCompanySave, type CompanyAdminView } from '@pipwise/domain';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { SORT_FIELD } from '../components/CatalogueRules';
import { CatalogueTable } from '../components/CatalogueTable';
import { asText } from '../components/text';

export default function Companies() {
  const { t } = useTranslation('catalogue');
  /** A closed site sends its visitors to loss_url, so a closed site needs one. */
  const lossUrlWhenClosed: Rule = ({ getFieldValue }) => ({
    validator: async (_, value: unknown) => {
      if (getFieldValue('status') === CompanyStatus.closed && !asText(value).trim())
        throw new Error(t('validation.loss_url_required'));
    },
  });
  return (
    <CatalogueTable<CompanyAdminView>
      area="companies"
      path="/companies"
      defaults={{ status: CompanyStatus.open, type: CompanyType.whiteLabel, sort: 0 }}
      schemas={{ create: ZCompanySave, change: ZCompanyChange }}
      fields={[
        { name: 'name', kind: 'text', required: true, column: true },
        { name: 'logo', kind: 'text' },
        { name: 'url', kind: 'text', column: true },
        { name: 'subject', kind: 'text' },
        { name: 'registered_address', kind: 'text' },
        { name: 'location', kind: 'text', column: true },
        { name: 'email', kind: 'text' },
        {
          name: 'status',
          kind: 'select',
          required: true,
          column: true,
          options: [
            { value: CompanyStatus.open, label: t('company_status.open') },
            { value: CompanyStatus.closed, label: t('company_status.closed') },
          ],
        },
        {
          name: 'type',
          kind: 'select',
          required: true,
          column: true,
          options: [
            { value: CompanyType.main, label: t('company_type.main') },
            { value: CompanyType.whiteLabel, label: t('company_type.white_label') },
          ],
        },
        { name: 'loss_url', kind: 'text', column: true, rules: [lossUrlWhenClosed] },
        SORT_FIELD,
      ]}
      fixedColumns={[{ key: 'id', dataIndex: 'id', title: t('field.id') }]}
    />
  );
}
