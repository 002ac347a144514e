import type { RiskInstrumentView, RiskView } from '@pipwise/domain';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Bar, BarChart, CartesianGrid, Cell, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { adminApi } from '../api';
import { EmptyState, LoadError, TABULAR, formatDecimal, pnlColor, signOf } from '../components/BackOfficeStates';

/** One point of the book's floating P&L over this page's session (kept in the browser only). */
interface PnlPoint {
  at: string;
  time: string;
  pnl: number;
}

/** About an hour of polls at 2 s: enough to see the session's trend without growing forever. */
const HISTORY_LIMIT = 1800;
const POLL_MS = 2000;

/** The points of this browser tab's session, so leaving the page and coming back keeps the line. */
let sessionHistory: PnlPoint[] = [];

export default function Risk() {
  const { t } = useTranslation('risk');
  const risk = useQuery({
    queryKey: ['risk'],
    queryFn: () => adminApi<RiskView>('GET', '/risk'),
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
  });
  const [history, setHistory] = useState<PnlPoint[]>(() => sessionHistory);

  const snapshot = risk.data;
  useEffect(() => {
    if (!snapshot) return;
    setHistory((points) => {
      if (points.at(-1)?.at === snapshot.at) return points;
      const point = { at: snapshot.at, time: new Date(snapshot.at).toLocaleTimeString(), pnl: snapshot.book.floating_pnl };
      sessionHistory = [...points.slice(-(HISTORY_LIMIT - 1)), point];
      return sessionHistory;
    });
  }, [snapshot]);

  if (risk.isPending) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (risk.isError && !snapshot) return <LoadError error={risk.error} onRetry={() => void risk.refetch()} />;
  if (!snapshot) return null;

  const money = (value: number | null) => <span style={TABULAR}>{formatDecimal(value, 2)}</span>;
  const pnl = (value: number) => <span style={{ ...TABULAR, color: pnlColor(value) }}>{formatDecimal(value, 2)}</span>;
  const lots = (value: number) => <span style={TABULAR}>{formatDecimal(value, 2)}</span>;
  // Instruments without a USD rate have no exposure to draw; the table still lists them.
  const chartData = snapshot.instruments.flatMap((row) =>
    row.net_exposure_usd === null ? [] : [{ code: row.code, exposure: row.net_exposure_usd }],
  );

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space align="baseline" wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <Typography.Text type="secondary" style={TABULAR} data-testid="risk-at">
          {t('updated_at', { time: new Date(snapshot.at).toLocaleTimeString() })}
        </Typography.Text>
        {risk.isError && <Tag color="error">{t('stale')}</Tag>}
      </Space>

      <Row gutter={[16, 16]}>
        {(
          [
            ['book_exposure', snapshot.book.net_exposure_usd, 2, null],
            ['book_pnl', snapshot.book.floating_pnl, 2, null],
            ['clients_pnl', snapshot.book.clients_floating_pnl, 2, null],
            ['today_deposits', snapshot.today.deposits.amount, 2, snapshot.today.deposits.count],
            ['today_withdrawals', snapshot.today.withdrawals.amount, 2, snapshot.today.withdrawals.count],
            ['today_new_users', snapshot.today.new_users, 0, null],
          ] as const
        ).map(([key, value, decimals, count]) => (
          <Col key={key} xs={12} md={8} xl={4}>
            <Card size="small" data-testid={`stat-${key}`} style={{ height: '100%' }}>
              <Statistic
                title={t(key)}
                value={formatDecimal(value, decimals)}
                suffix={count === null ? undefined : <span style={{ ...TABULAR, fontSize: 13 }}>{t('count', { count })}</span>}
                styles={{ content: { ...TABULAR, color: key.endsWith('pnl') ? pnlColor(value) : undefined } }}
              />
            </Card>
          </Col>
        ))}
      </Row>

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card title={t('exposure_chart')} size="small">
            <div style={{ height: 260 }} role="img" aria-label={t('exposure_chart')}>
              {chartData.length === 0 ? (
                <EmptyState />
              ) : (
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={chartData}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="code" />
                    <YAxis width={88} tickFormatter={(value) => formatDecimal(String(value), 0)} />
                    <Tooltip formatter={(value) => formatDecimal(String(value), 2)} />
                    <Bar dataKey="exposure" name={t('net_exposure_usd')} isAnimationActive={false}>
                      {chartData.map((row) => (
                        <Cell key={row.code} fill={signOf(row.exposure) < 0 ? '#cf1322' : '#1677ff'} />
                      ))}
                    </Bar>
                  </BarChart>
                </ResponsiveContainer>
              )}
            </div>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('pnl_chart')} size="small">
            <div style={{ height: 260 }} role="img" aria-label={t('pnl_chart')}>
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={history}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="time" minTickGap={40} />
                  <YAxis width={88} tickFormatter={(value) => formatDecimal(String(value), 0)} />
                  <Tooltip formatter={(value) => formatDecimal(String(value), 2)} />
                  <Line dataKey="pnl" name={t('book_pnl')} dot={false} isAnimationActive={false} stroke="#1677ff" />
                </LineChart>
              </ResponsiveContainer>
            </div>
          </Card>
        </Col>
      </Row>

      <Card title={t('instruments')} size="small">
        <Table<RiskInstrumentView>
          rowKey="code"
          size="small"
          pagination={false}
          dataSource={snapshot.instruments}
          locale={{ emptyText: <EmptyState /> }}
          onRow={(row) => ({ 'data-testid': `row-${row.code}` }) as React.HTMLAttributes<HTMLElement>}
          scroll={{ x: 720 }}
          columns={[
            { title: t('code'), dataIndex: 'code' },
            { title: t('long_lots'), dataIndex: 'long_lots', align: 'right', render: lots },
            { title: t('short_lots'), dataIndex: 'short_lots', align: 'right', render: lots },
            { title: t('net_lots'), dataIndex: 'net_lots', align: 'right', render: lots },
            { title: t('net_exposure_usd'), dataIndex: 'net_exposure_usd', align: 'right', render: money },
            { title: t('floating_pnl'), dataIndex: 'floating_pnl', align: 'right', render: pnl },
          ]}
        />
      </Card>

      <Card
        title={t('nearest_stop_out')}
        size="small"
        extra={<span style={TABULAR}>{t('stop_out_level', { level: formatDecimal(snapshot.stop_out_level, 2) })}</span>}
      >
        <Table
          rowKey={(row) => String(row.uid)}
          size="small"
          pagination={false}
          dataSource={snapshot.nearest_stop_out}
          locale={{ emptyText: <EmptyState description={t('no_open_margin')} /> }}
          onRow={(row) => ({ 'data-testid': `row-${row.uid}` }) as React.HTMLAttributes<HTMLElement>}
          scroll={{ x: 600 }}
          columns={[
            {
              title: t('uid'),
              dataIndex: 'uid',
              render: (uid: number | null) => (uid === null ? '—' : <Link to={`/users?uid=${uid}`}>{uid}</Link>),
            },
            { title: t('equity'), dataIndex: 'equity', align: 'right', render: money },
            { title: t('used_margin'), dataIndex: 'used_margin', align: 'right', render: money },
            {
              title: t('margin_level'),
              dataIndex: 'margin_level',
              align: 'right',
              render: (level: number | null) => (
                <span style={TABULAR}>{level === null ? '—' : `${formatDecimal(level, 2)} %`}</span>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
