import { MenuOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Layout, Menu, Result, Segmented, Space, Spin, Typography } from 'antd';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { loadAllMessages, setLanguage, type AdminLanguage } from './i18n';
import { PAGES } from './pages';
import { useSession } from './session';

const GROUPS = ['reviews', 'money', 'users', 'catalogue', 'content', 'system'] as const;

/** The signed-in frame: the menu of the pages the operator's roles open, the header and the page. */
export default function Shell() {
  const { t, i18n } = useTranslation('nav');
  const { operator, may, signOut } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const pages = useMemo(() => PAGES.filter((page) => may(page.roles)), [may]);
  // Below 992 px (a tablet held upright) the menu folds away and a button in the header brings it back.
  const [narrow, setNarrow] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => void loadAllMessages(), []);
  const items = GROUPS.map((group) => ({
    key: group,
    type: 'group' as const,
    label: t(`group_${group}`),
    children: pages.filter((page) => page.group === group).map((page) => ({ key: page.path, label: t(page.label) })),
  })).filter((group) => group.children.length > 0);

  // antd's App (the message, notification and modal the pages open) is here, not around sign-in, which opens none.
  return (
    <AntApp>
      <Layout style={{ minHeight: '100vh' }}>
        <Layout.Sider
          breakpoint="lg"
          onBreakpoint={(below) => {
            setNarrow(below);
            setMenuOpen(false);
          }}
          collapsed={narrow && !menuOpen}
          collapsedWidth={0}
          trigger={null}
          width={220}
          theme="light"
        >
          <Typography.Title level={4} style={{ padding: '16px 24px 0' }}>
            {t('brand')}
          </Typography.Title>
          <Menu
            mode="inline"
            selectedKeys={[location.pathname]}
            items={items}
            onClick={({ key }) => {
              void navigate(key);
              setMenuOpen(false);
            }}
          />
        </Layout.Sider>
        <Layout>
          <Layout.Header style={{ background: 'transparent', display: 'flex', alignItems: 'center', gap: 16, paddingInline: 24 }}>
            {narrow && (
              <Button
                icon={<MenuOutlined />}
                aria-label={t('menu')}
                aria-expanded={menuOpen}
                onClick={() => setMenuOpen((open) => !open)}
              />
            )}
            <Space style={{ marginInlineStart: 'auto' }}>
              <Segmented<AdminLanguage>
                value={i18n.language as AdminLanguage}
                options={[
                  { value: 'en', label: 'EN' },
                  { value: 'hk', label: '繁' },
                ]}
                onChange={setLanguage}
              />
              <Typography.Text data-testid="operator-email">
                {operator?.email} · {t(`role_${operator?.role}`)}
              </Typography.Text>
              <Button onClick={() => void signOut()}>{t('sign_out')}</Button>
            </Space>
          </Layout.Header>
          <Layout.Content style={{ padding: 24 }}>
            <Suspense fallback={<Spin />}>
              <Routes>
                {pages.map((page) => (
                  <Route key={page.path} path={page.path} element={<page.component />} />
                ))}
                <Route path="/" element={<Navigate to={pages[0]?.path ?? '/account'} replace />} />
                <Route path="*" element={<Result status="404" title={t('not_found')} />} />
              </Routes>
            </Suspense>
          </Layout.Content>
        </Layout>
      </Layout>
    </AntApp>
  );
}
