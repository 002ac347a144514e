import {
  dec,
  MONEY_SETTING_KEYS,
  schemaErrors,
  SETTING_RULES,
  type PendingChangeRefView,
  type SettingKeyView,
  type SettingsView,
} from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, InputNumber, Select, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { EmptyState, LoadError, errorText } from '../components/BackOfficeStates';
import { useSession } from '../session';
import { PageHeader } from '../components/PageHeader';

/**
 * Keys only a superadmin may change: they move money or risk. A change that weakens a control waits for a
 * second superadmin (Pending changes). The server decides again.
 */
const MONEY_KEYS = new Set(MONEY_SETTING_KEYS);

function SettingRow({ entry, mayChange }: { entry: { key: SettingKeyView; value: string }; mayChange: boolean }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(entry.value);
  useEffect(() => setDraft(entry.value), [entry.value]);
  const rule = SETTING_RULES[entry.key];
  const kind = rule.editor;
  const label = t(`key.${entry.key}`, { defaultValue: entry.key });
  // The rule's message keys read in this page's namespace, with the limits the editor knows.
  const translate = (keys: string | string[]) =>
    t(
      [keys].flat().map((key) => key.replace('.', ':')),
      kind.type === 'decimal' ? { decimals: kind.decimals } : kind.type === 'text' ? { max: kind.max } : {},
    );
  const problem = schemaErrors(rule.schema, draft, translate, { namespace: 'settings' }).form ?? null;
  const dirty = draft !== entry.value;

  const save = useMutation({
    mutationFn: (value: string) =>
      adminApi<SettingsView | PendingChangeRefView>('PUT', `/settings/${encodeURIComponent(entry.key)}`, { body: { value } }),
    onSuccess: (answer) => {
      if ('pending_change' in answer) {
        void message.info(t('pending_key', { key: label }));
      } else void message.success(t('saved_key', { key: label }));
      void queryClient.invalidateQueries({ queryKey: ['settings'] });
    },
    onError: (error) => void message.error(errorText(error, t('common:server_error'))),
  });

  const common = { 'aria-label': label, id: `setting-${entry.key}`, disabled: !mayChange || save.isPending };
  let input: ReactNode;
  switch (kind.type) {
    case 'select':
      input = (
        <Select
          {...common}
          style={{ width: 280 }}
          value={draft}
          onChange={setDraft}
          options={kind.options.map((value) => ({ value, label: t(`option.${entry.key}.${value}`, { defaultValue: value }) }))}
        />
      );
      break;
    case 'flag':
      input = <Switch {...common} checked={draft === '1'} onChange={(checked) => setDraft(checked ? '1' : '0')} />;
      break;
    case 'decimal':
    case 'integer':
      input = (
        <InputNumber<string>
          {...common}
          stringMode
          min="0"
          precision={kind.type === 'integer' ? 0 : undefined}
          style={{ width: 200 }}
          value={draft}
          onChange={(value) => setDraft(value === null ? '' : kind.type === 'decimal' ? normalise(value) : value)}
          status={problem ? 'error' : undefined}
        />
      );
      break;
    case 'countries':
      input = (
        <Select
          {...common}
          mode="tags"
          tokenSeparators={[',', ' ']}
          style={{ minWidth: 280, maxWidth: 520 }}
          value={draft ? draft.split(',') : []}
          onChange={(codes: string[]) =>
            setDraft([...new Set(codes.map((code) => code.trim().toUpperCase()).filter(Boolean))].join(','))
          }
          status={problem ? 'error' : undefined}
        />
      );
      break;
    default:
      input = (
        <Input
          {...common}
          style={{ width: 360 }}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          status={problem ? 'error' : undefined}
        />
      );
  }

  return (
    <Card size="small" data-testid={`setting-${entry.key}`}>
      <Space wrap align="start" style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space orientation="vertical" size={0} style={{ maxWidth: 420 }}>
          <label htmlFor={`setting-${entry.key}`}>
            <Typography.Text strong>{label}</Typography.Text>
          </label>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <code>{entry.key}</code> {t(`help.${entry.key}`, { defaultValue: '' })}
          </Typography.Text>
          {!mayChange && <Tag style={{ marginTop: 4, width: 'fit-content' }}>{t('read_only')}</Tag>}
        </Space>
        <Space orientation="vertical" size={4} align="end">
          <Space wrap>
            {input}
            {mayChange && (
              <Button
                type="primary"
                disabled={!dirty || problem !== null}
                loading={save.isPending}
                onClick={() => save.mutate(draft)}
                aria-label={t('save_key', { key: label })}
              >
                {t('common:save')}
              </Button>
            )}
          </Space>
          {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
        </Space>
      </Space>
    </Card>
  );
}

/** Plain decimal text: no exponent, no trailing zeros after the point. */
const normalise = (value: string) => (/^\d{1,9}(\.\d+)?$/.test(value) ? dec(value).toFixed() : value);

export default function Settings() {
  const { t } = useTranslation('settings');
  const { may } = useSession();
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => adminApi<SettingsView>('GET', '/settings') });

  if (settings.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (settings.isError) return <LoadError error={settings.error} onRetry={() => void settings.refetch()} />;
  const entries = (Object.entries(settings.data) as [SettingKeyView, string][])
    .map(([key, value]) => ({ key, value }))
    .sort((a, b) => a.key.localeCompare(b.key));

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <PageHeader title={t('title')} />
      <Typography.Text type="secondary">{t('intro')}</Typography.Text>
      {entries.length === 0 ? (
        <EmptyState />
      ) : (
        entries.map((entry) => (
          <SettingRow key={entry.key} entry={entry} mayChange={MONEY_KEYS.has(entry.key) ? may([]) : may(['content'])} />
        ))
      )}
    </Space>
  );
}
