import { describe, expect, it } from 'vitest';
import { promotionState } from './promotion-state';

const session = (startDate: string, extra: Partial<{ isActive: boolean; isPromotionCompleted: boolean }> = {}) => ({
  startDate,
  isActive: false,
  isPromotionCompleted: false,
  ...extra,
});

describe('the promotion badge of the session list', () => {
  const running = session('2026-04-01', { isActive: true });

  it('says nothing for the first session, which nobody was promoted into', () => {
    expect(promotionState(running, running)).toBe('none');
  });

  it('says nothing for an earlier session the school has left', () => {
    expect(promotionState(session('2025-04-01'), session('2026-04-01', { isActive: true, isPromotionCompleted: true }))).toBe('none');
  });

  it('says pending only for a later session not yet started', () => {
    expect(promotionState(session('2027-04-01'), running)).toBe('pending');
  });

  it('says completed once students moved into it', () => {
    expect(promotionState(session('2027-04-01', { isActive: true, isPromotionCompleted: true }), running)).toBe('completed');
  });
});
