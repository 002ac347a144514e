import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountsServer, type AccountsServer } from './accounts-helpers.js';
import { DB_KINDS } from './harness.js';

describe.each(DB_KINDS)('area codes and settings on %s', (kind) => {
  let server: AccountsServer;
  beforeAll(async () => {
    server = await startAccountsServer(kind);
  });
  afterAll(() => server.close());

  it('lists the world’s areas with their dialling codes', async () => {
    const response = await server.send<{ id: number; code: string; global_code: string; name: string }[]>(
      'GET',
      '/api/default/area_list?timestamp=1',
    );
    expect(response.code).toBe(1);
    expect(response.data.length).toBeGreaterThan(200);
    expect(response.data).toContainEqual(expect.objectContaining({ code: 'GB', global_code: '+44', name: 'United Kingdom' }));
    expect(response.data).toContainEqual(expect.objectContaining({ code: 'HK', global_code: '+852' }));
    for (const area of response.data) {
      expect(Object.keys(area).sort()).toEqual(['code', 'global_code', 'id', 'name']);
      expect(area.global_code).toMatch(/^\+\d{1,4}$/);
    }
  });

  it('answers public settings one at a time, numbers as numbers', async () => {
    expect((await server.send('GET', '/api/default/setting?key=is_show_mobile')).data).toEqual({
      key: 'is_show_mobile',
      value: 1,
    });
    expect((await server.send('GET', '/api/default/setting?key=complaint_email')).data).toEqual({
      key: 'complaint_email',
      value: 'complaints@pipwise.local',
    });
  });

  it('answers the basic info, following the settings table', async () => {
    await server.ctx.settings.set({ service_link: 'https://chat.example.com', service_link_type: '3' });
    const response = await server.send('GET', '/api/basicSet/getBasicInfo');
    expect(response).toMatchObject({ code: 1, msg: 'Success' });
    expect(response.data).toEqual({
      service_link: 'https://chat.example.com',
      service_link_type: 3,
      verify_reg_type: 1,
      trade_fee_type: 2,
      is_show_mobile: 1,
      complaint_email: 'complaints@pipwise.local',
      restricted_countries: 'KP,IL,CN,VU,CU',
      risk_disclosure_version: 1,
    });
  });
});
