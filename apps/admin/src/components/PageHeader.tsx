import { Space, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A page's title, with its actions (filters, add, export) at the other end of the line when it has some. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  const heading = (
    <Typography.Title level={3} style={{ margin: 0 }}>
      {title}
    </Typography.Title>
  );
  if (children === undefined) return heading;
  return (
    <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
      {heading}
      {children}
    </Space>
  );
}
