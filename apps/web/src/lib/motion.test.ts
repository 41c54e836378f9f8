import { describe, expect, it } from 'vitest';
import { applyMotion } from './motion';

describe('applyMotion', () => {
  it('gives the stylesheet the timings of spec §9', () => {
    const style = document.createElement('div').style;
    applyMotion(style);
    expect(style.getPropertyValue('--overlay-enter')).toBe('120ms');
    expect(style.getPropertyValue('--overlay-exit')).toBe('100ms');
    expect(style.getPropertyValue('--dialog-animation')).toBe('150ms');
    expect(style.getPropertyValue('--dialog-animation-slow')).toBe('300ms');
  });
});
