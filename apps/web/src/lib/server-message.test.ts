import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { readableMessage, serverMessage } from './server-message';

const labels = { url: 'Link address', name: 'Link name' };
const refusal = (status: number, message: string) =>
  new ApiError(status, { statusCode: status, code: 'X', message, msg: message });

describe('serverMessage', () => {
  it.each([400, 403, 409, 429])("gives the server's message of a %i", (status) => {
    expect(serverMessage(refusal(status, 'My Space cannot be shared.'), labels)).toEqual({
      field: null,
      text: 'My Space cannot be shared.',
    });
  });

  it.each([404, 413, 500, 503])('gives nothing for a %i: the form says it its way', (status) => {
    expect(serverMessage(refusal(status, 'Collection abc was not found'), labels)).toBeNull();
  });

  it('gives nothing for a network failure, a session that ended, or an answer without text', () => {
    expect(serverMessage(new TypeError('Failed to fetch'), labels)).toBeNull();
    expect(serverMessage(new Error('Unauthorized'), labels)).toBeNull();
    expect(serverMessage(new ApiError(400, null), labels)).toBeNull();
    expect(serverMessage(new ApiError(400, { message: '  ' }), labels)).toBeNull();
    expect(serverMessage(null, labels)).toBeNull();
  });

  it('shows the words of the server by the field its answer names (decision 0078)', () => {
    const words = 'The address can have at most 2048 characters: shorten it.';
    const answer = { statusCode: 400, code: 'VALIDATION_ERROR', message: words, field: 'url' };
    expect(serverMessage(new ApiError(400, answer), labels)).toEqual({ field: 'url', text: words });
    // A field the form does not show: the words, above the form.
    expect(serverMessage(new ApiError(400, { ...answer, field: 'color' }), labels)).toEqual({
      field: null,
      text: words,
    });
  });

  it('reads msg when there is no message (spec §8)', () => {
    expect(serverMessage(new ApiError(409, { msg: 'Already shared.' }))).toEqual({
      field: null,
      text: 'Already shared.',
    });
  });
});

describe('readableMessage', () => {
  it('names the field by its label and returns it', () => {
    expect(readableMessage('body.url must be an http, https or mailto address', labels)).toEqual({
      field: 'url',
      text: 'Link address must be an http, https or mailto address.',
    });
    expect(readableMessage('body/name must be one line', labels)).toEqual({
      field: 'name',
      text: 'Link name must be one line.',
    });
  });

  it.each([
    ['body.name must NOT have fewer than 1 characters', 'Link name must not be empty.'],
    [
      'body.name must NOT have more than 200 characters',
      'Link name must be at most 200 characters long.',
    ],
    [
      'body.name must NOT have fewer than 8 characters',
      'Link name must be at least 8 characters long.',
    ],
    ['body.url is required', 'Link address is required.'],
    ['body.url.0 must be string', 'Link address must be string.'],
  ])('puts the validator’s %j in everyday words', (message, text) => {
    expect(readableMessage(message, labels).text).toBe(text);
  });

  it('keeps a path the form has no label for as the server wrote it, and no field', () => {
    expect(readableMessage('body.parentId must NOT have more than 21 characters', labels)).toEqual({
      field: null,
      text: 'body.parentId must be at most 21 characters long',
    });
    expect(readableMessage('body has an unknown property "x"', labels).field).toBeNull();
  });

  it('keeps a sentence that ends in its own punctuation', () => {
    expect(readableMessage('body.url must name a host!', labels).text).toBe(
      'Link address must name a host!',
    );
  });
});
