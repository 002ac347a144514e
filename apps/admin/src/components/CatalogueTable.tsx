import type { CatalogueRowView, FormSchema } from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ColumnsType } from 'antd/es/table';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { useSchemaRules } from '../forms';
import { TABULAR, errorText, formatDecimal } from './BackOfficeStates';
import { ListTable } from './ListTable';
import { PageHeader } from './PageHeader';
import { asText } from './text';

type Values = Record<string, unknown>;

/**
 * One editable field of a catalogue row. Decimal fields are edited and sent as exact text (the server
 * takes a number or its text; text keeps 0.0000000001 from turning into 1e-10 on the way). What a value
 * may be is the request schema's (`CatalogueTableProps.schemas`); a field says only how it is edited.
 */
export interface CatalogueField<Row extends CatalogueRowView = CatalogueRowView> {
  name: Extract<keyof Row, string>;
  kind: 'text' | 'integer' | 'decimal' | 'switch' | 'select' | 'integers' | 'names';
  /** The form always sends the whole row: a required field may not be left empty, even in a change. */
  required?: boolean;
  /**
   * decimal: 2 shows the column as money. A function gives the decimals of the row being edited, which
   * the server checks only once it has read the row (an instrument's spread has its prices' decimals).
   */
  decimals?: number | ((row: Partial<Row>) => number);
  options?: { value: number | string; label: string }[];
  /** integers: suggestions offered in the multi-select. */
  suggestions?: number[];
  /** names: the languages with a name each (the schema needs every one). */
  languages?: readonly string[];
  /** Shown as a table column (read-only text, or an inline switch for `switch`). */
  column?: boolean;
  /** Only set when the row is created (e.g. a code). */
  createOnly?: boolean;
  /** Extra rules comparing against other fields (e.g. max ≥ min). */
  rules?: Rule[];
  render?: (value: unknown, row: Row) => ReactNode;
}

interface CatalogueTableProps<Row extends CatalogueRowView> {
  /** i18n namespace `catalogue` key prefix of this catalogue (titles and field labels). */
  area: string;
  path: string;
  fields: CatalogueField<Row>[];
  /** The requests the server parses a new row and a change with; without `create`, rows are only changed. */
  schemas: { create?: FormSchema; change: FormSchema };
  /** Columns shown before the editable ones (identifiers the form does not edit). */
  fixedColumns?: ColumnsType<Row>;
  canCreate?: boolean;
  defaults?: Partial<Row>;
}

/** Decimal text with at most `decimals` places. */
const hasAtMostDecimals = (text: string, decimals: number) => (text.split('.')[1]?.length ?? 0) <= decimals;

/** A value left out: nothing, '' or an empty list. */
const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** What names a row to an operator: its code, name or slug, else its id. */
const rowName = (row: CatalogueRowView) =>
  asText('code' in row ? row.code : 'name' in row ? row.name : 'slug' in row ? row.slug : row.id);

/** What the form starts with: decimals as their exact text. */
function toFormValues<Row extends CatalogueRowView>(row: Partial<Row>, fields: CatalogueField<Row>[]): Values {
  const values: Values = {};
  for (const field of fields) {
    const value = row[field.name];
    values[field.name] = field.kind === 'decimal' && value !== undefined && value !== null ? asText(value) : value;
  }
  return values;
}

/** What the server receives: decimals as numbers, integer lists sorted without duplicates. */
function toBody<Row extends CatalogueRowView>(values: Values, fields: CatalogueField<Row>[], creating: boolean): Values {
  const body: Values = {};
  for (const field of fields) {
    if (field.createOnly && !creating) continue;
    const value = values[field.name];
    if (field.kind === 'decimal')
      body[field.name] = value === undefined || value === null || value === '' ? undefined : asText(value);
    else if (field.kind === 'integers')
      body[field.name] = [...new Set(((value as (string | number)[] | undefined) ?? []).map(Number))].sort((a, b) => a - b);
    else if (field.kind === 'text') body[field.name] = ((value as string | undefined) ?? '').trim();
    else body[field.name] = value;
  }
  return body;
}

/** The input of one field; `control` is what Form.Item hands its child (id, value, onChange). */
function FieldInput<Row extends CatalogueRowView>({
  field,
  label,
  ...control
}: { field: CatalogueField<Row>; label: string } & Record<string, unknown>) {
  switch (field.kind) {
    case 'switch':
      return <Switch aria-label={label} {...control} />;
    case 'integer':
      return <InputNumber {...control} aria-label={label} precision={0} style={{ width: '100%' }} />;
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
      return <Input {...control} aria-label={label} />;
  }
}

/**
 * A catalogue (instruments, categories, channels, currencies, companies): a table of the rows with a
 * form drawer to create or edit one. Refusals show the envelope's msg; the form checks what the server
 * checks so most mistakes never leave the browser.
 */
export function CatalogueTable<Row extends CatalogueRowView>({
  area,
  path,
  fields,
  schemas,
  fixedColumns = [],
  canCreate = true,
  defaults = {},
}: CatalogueTableProps<Row>) {
  const { t } = useTranslation('catalogue');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [form] = Form.useForm<Values>();
  const rows = useQuery({ queryKey: ['catalogue', path], queryFn: () => adminApi<Row[]>('GET', path) });
  const label = (field: CatalogueField<Row>) => t(`${area}.${field.name}`, { defaultValue: t(`field.${field.name}`) });
  const validation = (key: string, values?: Record<string, unknown>) => t(`validation.${key}`, values);
  const creating = editing === 'new';
  // The request the server would parse: a new row's, or a change's.
  const rule = useSchemaRules<Values>((creating && schemas.create) || schemas.change, 'catalogue', (values) =>
    toBody(values, fields, creating),
  );
  const required: Rule = {
    required: true,
    // antd's own required check assumes a string; numbers, lists and flags are checked here.
    validator: async (_, value: unknown) => {
      if (isEmpty(value) || (typeof value === 'string' && value.trim() === '')) throw new Error(validation('required'));
    },
  };

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
    await save.mutateAsync({ id: creating || editing === null ? null : editing.id, body: toBody(values, fields, creating) });
    setEditing(null);
  };

  /** An inline switch saves the whole row with the one change, as the edit form would. */
  const toggle = (row: Row, field: CatalogueField<Row>, checked: boolean) =>
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
                aria-label={`${label(field)} ${rowName(row)}`}
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
        <Button size="small" onClick={() => open(row)} aria-label={t('edit_row', { name: rowName(row) })}>
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
        dataSource={rows.data ?? []}
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
            if (field.createOnly && !creating) return null;
            if (field.kind === 'names')
              return (
                <fieldset key={field.name} style={{ border: 0, padding: 0, margin: 0 }}>
                  <legend style={{ fontSize: 14 }}>{label(field)}</legend>
                  {(field.languages ?? []).map((language) => (
                    <Form.Item
                      key={language}
                      name={[field.name, language]}
                      label={t(`language.${language}`)}
                      validateFirst
                      rules={[
                        required,
                        // Each language's box is checked on its own: the others stand in as named.
                        rule(field.name, (values) =>
                          toBody(
                            {
                              ...values,
                              [field.name]: {
                                ...Object.fromEntries((field.languages ?? []).map((other) => [other, other])),
                                [language]: (values[field.name] as Values | undefined)?.[language],
                              },
                            },
                            fields,
                            creating,
                          ),
                        ),
                      ]}
                    >
                      <Input />
                    </Form.Item>
                  ))}
                </fieldset>
              );
            const { decimals } = field;
            const rowDecimals: Rule[] =
              typeof decimals === 'function'
                ? [
                    {
                      validator: async (_, value: unknown) => {
                        const most = decimals(creating || editing === null ? defaults : editing);
                        if (!isEmpty(value) && !hasAtMostDecimals(asText(value), most))
                          throw new Error(validation('decimal_invalid', { decimals: most }));
                      },
                    },
                  ]
                : [];
            return (
              <Form.Item<Values>
                key={field.name}
                name={field.name}
                label={label(field)}
                valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
                validateFirst
                rules={[...(field.required ? [required] : []), rule(field.name), ...rowDecimals, ...(field.rules ?? [])]}
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
