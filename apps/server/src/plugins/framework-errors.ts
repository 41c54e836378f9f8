import type { ErrorCode, ErrorResponse } from '@signpost/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { sendError } from './errors.ts';

/**
 * Errors Fastify answers before any route or hook (decision 0049): an address whose path has
 * a bad percent-encoding, a path parameter that is too long, a failing route constraint. They
 * get the one error shape, with `message` and `msg`, and never echo the address.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return sendError(
        reply,
        400,
        'VALIDATION_ERROR',
        'The address is not valid: a % in its path must be followed by two hex digits of UTF-8.',
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendError(reply, 414, 'VALIDATION_ERROR', 'The address is too long.');
    default:
      request.log.error({ err: error }, 'request failed before routing');
      return sendError(reply, 500, 'INTERNAL_ERROR', 'Something went wrong on our side.');
  }
}

const CLIENT_ERRORS: Record<string, [number, ErrorCode, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive.'],
  HPE_HEADER_OVERFLOW: [431, 'PAYLOAD_TOO_LARGE', 'The request headers are too large.'],
};

/**
 * A request Node's HTTP parser refuses (a malformed request line or header, headers too
 * large, a request that never finished): the one error shape, written on the socket, which
 * is then closed. Nothing reached the app.
 */
export function clientErrorHandler(
  this: { log: { trace: (o: object, m: string) => void } },
  error: Error & { code?: string },
  socket: Socket,
) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [statusCode, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'VALIDATION_ERROR',
    'The request is not valid HTTP.',
  ];
  this.log.trace({ err: error }, 'client error');
  const error_ = STATUS_CODES[statusCode] ?? 'Error';
  const body: ErrorResponse = { statusCode, error: error_, code, message, msg: message };
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${statusCode} ${error_}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
