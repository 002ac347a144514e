import { dec } from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ColumnsType } from 'antd/es/table';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { TABULAR, errorText, formatDecimal, rowsOf } from './BackOfficeStates';
import { ListTable } from './ListTable';
import { PageHeader } from './PageHeader';
import { asText } from './text';

type Row = { id: number } & Record<string, unknown>;
type Values = Record<string, unknown>;

/**
 * One editable field of a catalogue row. Decimal fields are edited and sent as exact text (the server
 * takes a number or its text; text keeps 0.0000000001 from turning into 1e-10 on the way).
 */
export interface CatalogueField {
  name: string;
  kind: 'text' | 'url' | 'email' | 'integer' | 'decimal' | 'switch' | 'select' | 'integers' | 'names';
  required?: boolean;
  /** decimal: most decimals the server keeps (for the row being edited, when it depends on it). */
  decimals?: number | ((row: Values) => number);
  /** decimal: most digits before the point (the column's). */
  integerDigits?: number;
  /** text: the shape the server accepts, and the `validation.*` key explaining it. */
  pattern?: RegExp;
  patternMessage?: string;
  /** decimal: whether 0 is allowed (otherwise it must be positive). */
  zero?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  options?: { value: number | string; label: string }[];
  /** integers: most entries. */
  maxItems?: number;
  /** integers: suggestions offered in the multi-select. */
  suggestions?: number[];
  /** names: the languages with a name each, and which of them are required. */
  languages?: readonly string[];
  requiredLanguages?: readonly string[];
  /** Shown as a table column (read-only text, or an inline switch for `switch`). */
  column?: boolean;
  /** Only set when the row is created (e.g. a code). */
  createOnly?: boolean;
  /** Extra rules comparing against other fields (e.g. max ≥ min). */
  rules?: Rule[];
  render?: (value: unknown, row: Row) => ReactNode;
}

interface CatalogueTableProps {
  /** i18n namespace `catalogue` key prefix of this catalogue (titles and field labels). */
  area: string;
  path: string;
  fields: CatalogueField[];
  /** Columns shown before the editable ones (identifiers the form does not edit). */
  fixedColumns?: ColumnsType<Row>;
  canCreate?: boolean;
  defaults?: Values;
}

/** Decimal text with at most `decimals` places and `integerDigits` before the point: what the server accepts. */
const decimalPattern = (decimals: number, integerDigits: number) =>
  new RegExp(`^\\d{1,${integerDigits}}${decimals > 0 ? `(\\.\\d{1,${decimals}})?` : ''}$`);

const decimalRules = (
  field: CatalogueField,
  row: Values,
  message: (key: string, values?: Record<string, unknown>) => string,
): Rule[] => [
  {
    validator: async (_, value: unknown) => {
      if (value === undefined || value === null || value === '') {
        if (field.required) throw new Error(message('required'));
        return;
      }
      const text = asText(value);
      const decimals = typeof field.decimals === 'function' ? field.decimals(row) : (field.decimals ?? 2);
      if (!decimalPattern(decimals, field.integerDigits ?? 12).test(text))
        throw new Error(message('decimal_invalid', { decimals }));
      if (!field.zero && dec(text).isZero()) throw new Error(message('positive'));
      if (field.max !== undefined && dec(text).greaterThan(field.max)) throw new Error(message('at_most', { max: field.max }));
    },
  },
];

const TEXT_KINDS = new Set<CatalogueField['kind']>(['text', 'url', 'email']);

/** What the form starts with: decimals as their exact text. */
function toFormValues(row: Values, fields: CatalogueField[]): Values {
  const values: Values = {};
  for (const field of fields) {
    const value = row[field.name];
    values[field.name] = field.kind === 'decimal' && value !== undefined && value !== null ? asText(value) : value;
  }
  return values;
}

/** What the server receives: decimals as numbers, integer lists sorted without duplicates. */
function toBody(values: Values, fields: CatalogueField[], creating: boolean): Values {
  const body: Values = {};
  for (const field of fields) {
    if (field.createOnly && !creating) continue;
    const value = values[field.name];
    if (field.kind === 'decimal')
      body[field.name] = value === undefined || value === null || value === '' ? undefined : asText(value);
    else if (field.kind === 'integers')
      body[field.name] = [...new Set(((value as (string | number)[] | undefined) ?? []).map(Number))].sort((a, b) => a - b);
    else if (field.kind === 'text' || field.kind === 'url' || field.kind === 'email')
      body[field.name] = ((value as string | undefined) ?? '').trim();
    else body[field.name] = value;
  }
  return body;
}

/** The input of one field; `control` is what Form.Item hands its child (id, value, onChange). */
function FieldInput({ field, label, ...control }: { field: CatalogueField; label: string } & Record<string, unknown>) {
  switch (field.kind) {
    case 'switch':
      return <Switch aria-label={label} {...control} />;
    case 'integer':
      return (
        <InputNumber {...control} aria-label={label} precision={0} min={field.min} max={field.max} style={{ width: '100%' }} />
      );
    case 'decimal':
      return <InputNumber<string> {...control} aria-label={label} stringMode min="0" style={{ width: '100%' }} />;
    case 'select':
      return <Select {...control} aria-label={label} options={field.options} />;
    case 'integers':
      return (
        <Select
          {...control}
          aria-label={label}
          mode="tags"
          tokenSeparators={[',', ' ']}
          options={(field.suggestions ?? []).map((value) => ({ value, label: String(value) }))}
        />
      );
    default:
      return <Input {...control} aria-label={label} maxLength={field.maxLength} />;
  }
}

/**
 * A catalogue (instruments, categories, channels, currencies, companies): a table of the rows with a
 * form drawer to create or edit one. Refusals show the envelope's msg; the form checks what the server
 * checks so most mistakes never leave the browser.
 */
export function CatalogueTable({ area, path, fields, fixedColumns = [], canCreate = true, defaults = {} }: CatalogueTableProps) {
  const { t } = useTranslation('catalogue');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [form] = Form.useForm<Values>();
  const rows = useQuery({ queryKey: ['catalogue', path], queryFn: () => adminApi<Row[] | { data: Row[] }>('GET', path) });
  const label = (field: CatalogueField) => t(`${area}.${field.name}`, { defaultValue: t(`field.${field.name}`) });
  const validation = (key: string, values?: Record<string, unknown>) => t(`validation.${key}`, values);

  const save = useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Values }) =>
      id === null ? adminApi<Row>('POST', path, { body }) : adminApi<Row>('PUT', `${path}/${id}`, { body }),
    onSuccess: () => {
      void message.success(t('common:saved'));
      void queryClient.invalidateQueries({ queryKey: ['catalogue', path] });
    },
    onError: (error) => void message.error(errorText(error, t('common:server_error'))),
  });

  const open = (row: Row | 'new') => {
    setEditing(row);
    form.resetFields();
    form.setFieldsValue(toFormValues(row === 'new' ? defaults : row, fields));
  };

  const submit = async () => {
    const values = await form.validateFields();
    const creating = editing === 'new';
    await save.mutateAsync({ id: creating || editing === null ? null : editing.id, body: toBody(values, fields, creating) });
    setEditing(null);
  };

  /** An inline switch saves the whole row with the one change, as the edit form would. */
  const toggle = (row: Row, field: CatalogueField, checked: boolean) =>
    save.mutate({ id: row.id, body: toBody({ ...toFormValues(row, fields), [field.name]: checked }, fields, false) });

  const columns: ColumnsType<Row> = [
    ...fixedColumns,
    ...fields
      .filter((field) => field.column)
      .map((field) => ({
        key: field.name,
        dataIndex: field.name,
        title: label(field),
        align: field.kind === 'decimal' || field.kind === 'integer' ? ('right' as const) : undefined,
        render: (value: unknown, row: Row) => {
          if (field.render) return field.render(value, row);
          if (field.kind === 'switch')
            return (
              <Switch
                size="small"
                checked={Boolean(value)}
                aria-label={`${label(field)} ${asText(row.code ?? row.name ?? row.id)}`}
                onChange={(checked) => toggle(row, field, checked)}
              />
            );
          if (field.kind === 'select')
            return field.options?.find((option) => option.value === value)?.label ?? (asText(value) || '—');
          if (field.kind === 'integers') return ((value as number[] | undefined) ?? []).join(', ');
          // Amounts (2 decimals) read with thousands separators; rates and prices exactly as stored.
          if (field.kind === 'decimal' && field.decimals === 2)
            return <span style={TABULAR}>{formatDecimal(value as string | number | null, 2)}</span>;
          if (field.kind === 'decimal' || field.kind === 'integer') return <span style={TABULAR}>{asText(value) || '—'}</span>;
          return value === undefined || value === null || value === '' ? '—' : asText(value);
        },
      })),
    {
      key: 'actions',
      title: t('actions'),
      fixed: 'right' as const,
      render: (_: unknown, row: Row) => (
        <Button
          size="small"
          onClick={() => open(row)}
          aria-label={t('edit_row', { name: asText(row.code ?? row.name ?? row.slug ?? row.id) })}
        >
          {t('edit')}
        </Button>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <PageHeader title={t(`${area}.title`)}>
        {canCreate && (
          <Button type="primary" onClick={() => open('new')}>
            {t('add')}
          </Button>
        )}
      </PageHeader>
      <ListTable<Row>
        query={rows}
        testId={(row) => row.id}
        rowKey="id"
        loading={rows.isPending}
        dataSource={rowsOf(rows.data)}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        size="min(560px, 100vw)"
        title={editing === 'new' ? t('add_title', { what: t(`${area}.one`) }) : t('edit_title', { what: t(`${area}.one`) })}
        forceRender
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common:cancel')}</Button>
            <Button type="primary" loading={save.isPending} onClick={() => void submit().catch(() => undefined)}>
              {t('common:save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical" name={`catalogue-${area}`} onFinish={() => void submit().catch(() => undefined)}>
          {fields.map((field) => {
            if (field.createOnly && editing !== 'new') return null;
            if (field.kind === 'names')
              return (
                <fieldset key={field.name} style={{ border: 0, padding: 0, margin: 0 }}>
                  <legend style={{ fontSize: 14 }}>{label(field)}</legend>
                  {(field.languages ?? []).map((language) => (
                    <Form.Item
                      key={language}
                      name={[field.name, language]}
                      label={t(`language.${language}`)}
                      rules={[
                        {
                          required: field.requiredLanguages?.includes(language),
                          whitespace: true,
                          message: validation('required'),
                        },
                        { max: field.maxLength ?? 100, message: validation('too_long', { max: field.maxLength ?? 100 }) },
                      ]}
                    >
                      <Input />
                    </Form.Item>
                  ))}
                </fieldset>
              );
            const rules: Rule[] =
              field.kind === 'decimal'
                ? decimalRules(field, editing === 'new' || editing === null ? defaults : editing, validation)
                : [
                    ...(field.required
                      ? [
                          TEXT_KINDS.has(field.kind)
                            ? { required: true, whitespace: true, message: validation('required') }
                            : {
                                // antd's own required check assumes a string; numbers, lists and flags are checked here.
                                required: true,
                                validator: async (_: unknown, value: unknown) => {
                                  if (
                                    value === undefined ||
                                    value === null ||
                                    value === '' ||
                                    (Array.isArray(value) && value.length === 0)
                                  )
                                    throw new Error(validation('required'));
                                },
                              },
                        ]
                      : []),
                    ...(field.kind === 'url'
                      ? [{ pattern: /^(https?:\/\/\S+|\/\S*)?$/i, message: validation('url') }]
                      : field.kind === 'email'
                        ? [{ type: 'email' as const, message: validation('email') }]
                        : []),
                    ...(field.maxLength
                      ? [{ max: field.maxLength, message: validation('too_long', { max: field.maxLength }) }]
                      : []),
                    ...(field.pattern
                      ? [{ pattern: field.pattern, message: validation(field.patternMessage ?? 'invalid') }]
                      : []),
                    ...(field.kind === 'integers'
                      ? [
                          {
                            validator: async (_: unknown, value: unknown) => {
                              const list = (value as (string | number)[] | undefined) ?? [];
                              if (field.required && list.length === 0) throw new Error(validation('required'));
                              if (field.maxItems !== undefined && new Set(list.map(String)).size > field.maxItems)
                                throw new Error(validation('too_many', { max: field.maxItems }));
                              const bad = list.find(
                                (item) =>
                                  !/^\d+$/.test(String(item)) ||
                                  Number(item) < (field.min ?? 1) ||
                                  Number(item) > (field.max ?? Number.MAX_SAFE_INTEGER),
                              );
                              if (bad !== undefined)
                                throw new Error(validation('integers', { min: field.min ?? 1, max: field.max }));
                            },
                          },
                        ]
                      : []),
                  ];
            return (
              <Form.Item
                key={field.name}
                name={field.name}
                label={label(field)}
                valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
                rules={[...rules, ...(field.rules ?? [])]}
                dependencies={field.rules ? fields.map((other) => other.name).filter((name) => name !== field.name) : undefined}
              >
                <FieldInput field={field} label={label(field)} />
              </Form.Item>
            );
          })}
          <button type="submit" hidden aria-hidden />
        </Form>
      </Drawer>
    </Space>
  );
}
