import { useCompanyQuery } from '../api/queries/company';
import './company.css';

/** The product's own name: a name, the same in every language. */
const PRODUCT_NAME = 'Pipwise';

/** The company's logo and name where the app shows its brand; the product's own name if it cannot be read. */
export function Brand() {
  const company = useCompanyQuery();
  if (company.isPending) return <span className="brand brand-pending" aria-hidden="true" />;
  const name = company.data?.name ?? PRODUCT_NAME;
  return (
    <h1 className="brand">
      {company.data?.logo && <img className="brand-logo" src={company.data.logo} alt="" width={28} height={28} />}
      <span className="brand-name" translate="no">
        {name}
      </span>
    </h1>
  );
}
