import { describe, expect, it } from 'vitest';
import { describeBrowser, formatBytes, formatDuration } from './system-format';

describe('System tab figures', () => {
  it('sizes and durations read at a glance', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(5 * 1024 ** 2 + 300 * 1024)).toBe('5.3 MB');
    expect(formatBytes(120 * 1024 ** 3)).toBe('120 GB');
    expect(formatBytes(null)).toBe('—');
    expect(formatDuration(40)).toBe('40 s');
    expect(formatDuration(7_500)).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400 + 4 * 3_600 + 59)).toBe('3 d 4 h');
  });
});

describe('browser names', () => {
  it('names the browser and system, or shortens what it cannot read', () => {
    expect(describeBrowser('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome 131 on Windows');
    expect(describeBrowser('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari 17 on iOS');
    expect(describeBrowser('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox 128 on Linux');
    expect(describeBrowser('curl/8.5.0')).toBe('curl/8.5.0');
    expect(describeBrowser(null)).toBe('—');
  });
});
