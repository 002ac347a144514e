import { LANGUAGES, type AnnouncementAdminView, type NewsAdminView } from '@pipwise/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, Popconfirm, Select, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, type Page } from '../api';
import { errorText, formatDateTime, rowsOf } from './BackOfficeStates';
import { ListTable, usePager } from './ListTable';
import { RichTextEditor } from './RichTextEditor';
import { PageHeader } from './PageHeader';

/** A news article or an announcement as the operator API answers it. */
type Article = NewsAdminView | AnnouncementAdminView;

/** What the form sends; only news have a summary (`desc` in the answer) and a cover image's address. */
interface Draft {
  lang: string;
  title: string;
  description?: string;
  cover?: string;
  content: string;
  published: boolean;
}

interface ContentManagerProps {
  /** `news` or `announcements`: the API path and the i18n key prefix. */
  kind: 'news' | 'announcements';
  /** Most characters of the HTML content the server takes. */
  contentMax: number;
  /** News have a summary and a cover image shown in the list of the app. */
  withDescription?: boolean;
}

/** Sanitised HTML shown as the app will, in a sandbox without scripts or same-origin access. */
function SavedPreview({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={`<!doctype html><meta charset="utf-8"><body style="font-family:system-ui,sans-serif;margin:8px">${html}</body>`}
      style={{ width: '100%', minHeight: 200, border: '1px solid #f0f0f0', borderRadius: 6 }}
      data-testid="saved-preview"
    />
  );
}

export function ContentManager({ kind, contentMax, withDescription = false }: ContentManagerProps) {
  // The languages are named by the catalogue's words.
  const { t } = useTranslation(['content', 'catalogue']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [lang, setLang] = useState<string | undefined>(undefined);
  const [published, setPublished] = useState<'0' | '1' | undefined>(undefined);
  const { page, pageSize, setPage, pagination } = usePager();
  const [editing, setEditing] = useState<Article | 'new' | null>(null);
  const [saved, setSaved] = useState<Article | null>(null);
  const [form] = Form.useForm<Draft>();
  const path = `/${kind}`;
  const languageOptions = LANGUAGES.map((value) => ({ value, label: `${t(`catalogue:language.${value}`)} (${value})` }));

  const list = useQuery({
    queryKey: [kind, lang, published, page, pageSize],
    queryFn: () => adminApi<Page<Article> | Article[]>('GET', path, { query: { lang, published, page, page_size: pageSize } }),
    placeholderData: keepPreviousData,
  });
  const rows = rowsOf(list.data);
  const total = list.data && !Array.isArray(list.data) ? list.data.total : rows.length;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: [kind] });
  const onError = (error: unknown) => void message.error(errorText(error, t('common:server_error')));

  const save = useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Draft }) =>
      id === null ? adminApi<Article>('POST', path, { body }) : adminApi<Article>('PUT', `${path}/${id}`, { body }),
    onSuccess: refresh,
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => adminApi('DELETE', `${path}/${id}`),
    onSuccess: () => {
      void message.success(t('deleted'));
      refresh();
    },
    onError,
  });

  const open = (article: Article | 'new') => {
    setEditing(article);
    setSaved(null);
    form.resetFields();
    form.setFieldsValue(
      article === 'new'
        ? { lang: lang ?? 'en', title: '', description: '', cover: '', content: '', published: false }
        : {
            lang: article.lang,
            title: article.title,
            description: 'desc' in article ? article.desc : '',
            cover: 'cover' in article ? article.cover : '',
            content: article.content,
            published: article.published,
          },
    );
  };

  const submit = async () => {
    const values = await form.validateFields();
    const body: Draft = {
      lang: values.lang,
      title: values.title.trim(),
      content: values.content ?? '',
      published: Boolean(values.published),
      ...(withDescription ? { description: (values.description ?? '').trim(), cover: (values.cover ?? '').trim() } : {}),
    };
    const id = editing === 'new' || editing === null ? null : editing.id;
    const result = await save.mutateAsync({ id, body });
    void message.success(t('common:saved'));
    // The server sanitises what it stores: show that, so the operator sees what users will.
    if (result && typeof result === 'object' && typeof result.content === 'string') {
      const stored: Article = { ...body, ...result, id: result.id ?? id ?? 0 };
      setEditing(stored);
      setSaved(stored);
      form.setFieldsValue({ content: stored.content, title: stored.title });
    } else {
      setEditing(null);
    }
  };

  /** Publishing from the list saves the article with only that change. */
  const togglePublished = (article: Article, published: boolean) =>
    save.mutate({
      id: article.id,
      body: {
        lang: article.lang,
        title: article.title,
        content: article.content,
        published,
        ...('desc' in article ? { description: article.desc, cover: article.cover } : {}),
      },
    });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <PageHeader title={t(`${kind}.title`)}>
        <Space wrap>
          <Select
            aria-label={t('filter_language')}
            placeholder={t('all_languages')}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 220 }}
            value={lang}
            onChange={(value) => {
              setLang(value);
              setPage(1);
            }}
            options={languageOptions}
          />
          <Select
            aria-label={t('filter_published')}
            placeholder={t('all_states')}
            allowClear
            style={{ width: 160 }}
            value={published}
            onChange={(value) => {
              setPublished(value);
              setPage(1);
            }}
            options={[
              { value: '1', label: t('state_published') },
              { value: '0', label: t('state_draft') },
            ]}
          />
          <Button type="primary" onClick={() => open('new')}>
            {t(`${kind}.add`)}
          </Button>
        </Space>
      </PageHeader>

      <ListTable<Article>
        query={list}
        testId={(row) => row.id}
        rowKey="id"
        dataSource={rows}
        scroll={{ x: 720 }}
        pagination={pagination(total)}
        columns={[
          { title: t('field_id'), dataIndex: 'id', width: 80 },
          { title: t('field_lang'), dataIndex: 'lang', width: 100, render: (value: string) => <Tag>{value}</Tag> },
          { title: t('field_title'), dataIndex: 'title' },
          {
            title: t('field_created_at'),
            dataIndex: 'created_at',
            width: 200,
            render: (value?: string) => formatDateTime(value),
          },
          {
            title: t('field_published'),
            dataIndex: 'published',
            width: 110,
            render: (value: boolean, row) => (
              <Switch
                size="small"
                checked={value}
                aria-label={t('publish_row', { title: row.title })}
                onChange={(checked) => togglePublished(row, checked)}
              />
            ),
          },
          {
            title: t('actions'),
            key: 'actions',
            width: 170,
            render: (_, row) => (
              <Space>
                <Button size="small" onClick={() => open(row)} aria-label={t('edit_row', { title: row.title })}>
                  {t('edit')}
                </Button>
                <Popconfirm
                  title={t('delete_confirm')}
                  okText={t('common:confirm')}
                  cancelText={t('common:cancel')}
                  onConfirm={() => remove.mutateAsync(row.id)}
                >
                  <Button size="small" danger aria-label={t('delete_row', { title: row.title })}>
                    {t('delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />

      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        size="min(880px, 100vw)"
        forceRender
        title={editing === 'new' ? t(`${kind}.add`) : t(`${kind}.edit`)}
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('close')}</Button>
            <Button type="primary" loading={save.isPending} onClick={() => void submit().catch(() => undefined)}>
              {t('common:save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical" name={`content-${kind}`}>
          <Space wrap size="large" align="start">
            <Form.Item name="lang" label={t('field_lang')} rules={[{ required: true, message: t('validation_required') }]}>
              <Select options={languageOptions} showSearch={{ optionFilterProp: 'label' }} style={{ width: 240 }} />
            </Form.Item>
            <Form.Item name="published" label={t('field_published')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
          <Form.Item
            name="title"
            label={t('field_title')}
            rules={[
              { required: true, whitespace: true, message: t('validation_required') },
              { max: 200, message: t('validation_too_long', { max: 200 }) },
            ]}
          >
            <Input />
          </Form.Item>
          {withDescription && (
            <Form.Item
              name="description"
              label={t('field_description')}
              rules={[{ max: 500, message: t('validation_too_long', { max: 500 }) }]}
            >
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
            </Form.Item>
          )}
          {withDescription && (
            <Form.Item
              name="cover"
              label={t('field_cover')}
              rules={[
                { max: 500, message: t('validation_too_long', { max: 500 }) },
                // The app shows images of its own site only (its Content-Security-Policy), as the server checks.
                { pattern: /^(\/(?![/\\])\S*)?$/, message: t('validation_cover_path') },
              ]}
            >
              <Input placeholder="/…" />
            </Form.Item>
          )}
          <Form.Item
            name="content"
            label={t('field_content')}
            rules={[
              { required: true, message: t('validation_required') },
              { max: contentMax, message: t('validation_too_long', { max: contentMax }) },
            ]}
          >
            <RichTextEditor label={t('field_content')} />
          </Form.Item>
        </Form>
        {saved && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Typography.Text strong>{t('saved_result')}</Typography.Text>
            <SavedPreview html={saved.content} title={t('saved_result')} />
          </Space>
        )}
      </Drawer>
    </Space>
  );
}
