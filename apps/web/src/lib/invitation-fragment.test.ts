import { describe, expect, it } from 'vitest';
import {
  forgetInvitation,
  parseInvitationFragment,
  pendingInvitation,
  takeInvitationFragment,
} from './invitation-fragment';

describe('the invitation fragment', () => {
  it('reads a token and nothing else', () => {
    expect(parseInvitationFragment('#invitation=abcDEF123_-abcDEF123')).toBe(
      'abcDEF123_-abcDEF123',
    );
    expect(parseInvitationFragment('#invitation=<script>')).toBeNull();
    expect(parseInvitationFragment('#session?token=abc')).toBeNull();
  });

  it('takes it out of the address at once', () => {
    window.history.replaceState(null, '', '/#invitation=abcDEF123_-abcDEF123');
    expect(takeInvitationFragment()).toBe('abcDEF123_-abcDEF123');
    expect(window.location.hash).toBe('');
    expect(takeInvitationFragment()).toBeNull();
  });

  it('keeps the token of the start until forgotten, however often it is asked for', () => {
    window.history.replaceState(null, '', '/#invitation=abcDEF123_-abcDEF123');
    expect(pendingInvitation()).toBe('abcDEF123_-abcDEF123');
    expect(window.location.hash).toBe('');
    expect(pendingInvitation()).toBe('abcDEF123_-abcDEF123');
    forgetInvitation();
    expect(pendingInvitation()).toBeNull();
  });
});
