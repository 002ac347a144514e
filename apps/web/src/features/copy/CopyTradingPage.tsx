import { PROVIDER_SORTS, type ProviderEntryView } from '@pipwise/domain';
import { Badge, Button, Dropdown, Selector, type DropdownRef } from 'antd-mobile';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useProvidersQuery } from '../../api/queries/copy';
import { Screen } from '../../components/Screen';
import { profitTone } from '../../components/market';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatNumber, formatPercent } from '../../i18n/format';
import { useLazyTranslation } from '../../i18n/lazy';
import { Paths, providerPath } from '../../routing/paths';
import { activeFilters, DEFAULT_FILTER, MONTH_CHOICES, providerListParams, RISK_CHOICES, type ProviderFilter } from './figures';
import { AutomatedTag, Figure, RiskBadge } from './parts';
import './copy.css';

/** "Any" in the filter's choices: the Selector needs a value, the query sends none. */
const ANY = 0;

/**
 * The documentary (copy trading) tab: the providers one may copy with the figures they are compared by,
 * filtered by risk score and track record and sorted by return, drawdown or copiers; the way to the
 * user's copies and their own provider page.
 */
export default function CopyTradingPage() {
  const { t } = useLazyTranslation('copy');
  const [filter, setFilter] = useState<ProviderFilter>(DEFAULT_FILTER);
  const providers = useProvidersQuery(providerListParams(filter));
  // The list's order may move while it is paged: each provider is shown once.
  const rows = [...new Map((providers.data?.pages.flat() ?? []).map((row) => [row.provider_id, row])).values()];
  const filters = activeFilters(filter);
  const dropdown = useRef<DropdownRef>(null);

  return (
    <Screen withTabBar title={t('copy.title')}>
      <div className="copy-shortcuts">
        <Link className="copy-shortcut" to={Paths.copyMine}>
          {t('copy.my_copies')}
        </Link>
        <Link className="copy-shortcut" to={Paths.copyMyProvider}>
          {t('copy.my_provider')}
        </Link>
      </div>
      <Dropdown className="copy-filters" ref={dropdown}>
        <Dropdown.Item key="sort" title={t(`copy.sort_${filter.sort}`)}>
          <Selector
            className="copy-choices"
            aria-label={t('copy.sort')}
            columns={1}
            value={[filter.sort]}
            onChange={([sort]) => {
              if (sort) setFilter((current) => ({ ...current, sort }));
              dropdown.current?.close();
            }}
            options={PROVIDER_SORTS.map((sort) => ({ value: sort, label: t(`copy.sort_${sort}`) }))}
          />
        </Dropdown.Item>
        <Dropdown.Item
          key="filter"
          title={
            <Badge content={filters > 0 ? filters : null}>
              <span className="copy-filter-title">{t('copy.filter')}</span>
            </Badge>
          }
        >
          <div className="copy-filter-sheet">
            <p className="label">{t('copy.risk_max')}</p>
            <Selector
              aria-label={t('copy.risk_max')}
              columns={4}
              value={[filter.riskMax ?? ANY]}
              onChange={([value]) => setFilter((current) => ({ ...current, riskMax: value ? value : null }))}
              options={[
                { value: ANY, label: t('copy.any') },
                ...RISK_CHOICES.map((value) => ({ value, label: t('copy.risk_at_most', { score: value }) })),
              ]}
            />
            <p className="label">{t('copy.min_months')}</p>
            <Selector
              aria-label={t('copy.min_months')}
              columns={5}
              value={[filter.minMonths ?? ANY]}
              onChange={([value]) => setFilter((current) => ({ ...current, minMonths: value ? value : null }))}
              options={[
                { value: ANY, label: t('copy.any') },
                ...MONTH_CHOICES.map((value) => ({ value, label: t('copy.months_at_least', { months: value }) })),
              ]}
            />
            {filters > 0 && (
              <Button
                size="small"
                fill="none"
                onClick={() => setFilter((current) => ({ ...DEFAULT_FILTER, sort: current.sort }))}
              >
                {t('copy.clear_filters')}
              </Button>
            )}
          </div>
        </Dropdown.Item>
      </Dropdown>
      {providers.isPending ? (
        <ListSkeleton />
      ) : providers.isError ? (
        <ErrorState onRetry={() => void providers.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState text={filters > 0 ? t('copy.empty_filtered') : t('copy.empty')} />
      ) : (
        <>
          <ul className="copy-list" aria-label={t('copy.providers')} aria-busy={providers.isPlaceholderData}>
            {rows.map((provider) => (
              <li key={provider.provider_id}>
                <ProviderRow provider={provider} />
              </li>
            ))}
          </ul>
          {providers.hasNextPage && (
            <Button
              className="copy-more"
              block
              fill="none"
              loading={providers.isFetchingNextPage}
              onClick={() => void providers.fetchNextPage()}
            >
              {t('copy.more')}
            </Button>
          )}
        </>
      )}
    </Screen>
  );
}

function ProviderRow({ provider }: { provider: ProviderEntryView }) {
  const { t } = useLazyTranslation('copy');
  return (
    <Link className="copy-row" to={providerPath(provider.provider_id)}>
      <span className="copy-row-head">
        {/* A name the provider chose: never translated. */}
        <span className="copy-nickname" translate="no" dir="auto">
          {provider.nickname}
        </span>
        {provider.automated && <AutomatedTag />}
        <RiskBadge score={provider.risk_score} />
      </span>
      <span className="copy-row-figures">
        <Figure label={t('copy.return_12m')} className={profitTone(provider.return_12m)}>
          {formatPercent(provider.return_12m)}
        </Figure>
        <Figure label={t('copy.max_drawdown')}>{formatPercent(-Math.abs(provider.max_drawdown))}</Figure>
        <Figure label={t('copy.copiers')}>{formatNumber(provider.copiers, 0)}</Figure>
      </span>
    </Link>
  );
}
