import { describe, expect, it } from 'vitest';
import { safeLossUrl } from './site';

describe('where a closed site sends the browser', () => {
  it('follows web addresses and paths of this site', () => {
    expect(safeLossUrl('https://closed.example/bye?x=1')).toBe('https://closed.example/bye?x=1');
    expect(safeLossUrl('http://closed.example')).toBe('http://closed.example/');
    expect(safeLossUrl('/#/news')).toBe('/#/news');
  });

  it('follows nothing that runs script, leaves for another host by a protocol-relative path, or is empty', () => {
    for (const lossUrl of [
      '',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<p>x</p>',
      '//evil.example',
      'news',
    ]) {
      expect(safeLossUrl(lossUrl), lossUrl).toBeNull();
    }
  });
});
