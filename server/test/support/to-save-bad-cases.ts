// The to-save extension's bad requests, for the table of server/test/bad-input.test.ts (kept here
// so that the table only gains one line).
import type { OperationId } from '../../src/http/operations.ts';
import type { CallOptions } from './api.ts';

export function toSaveCases(): {
  name: string;
  op: OperationId;
  send: { call: CallOptions };
  status: number;
  message: string | RegExp;
}[] {
  return [
    {
      name: 'listToSave: no token',
      op: 'listToSave',
      send: { call: { token: null } },
      status: 401,
      message: 'No authorization header',
    },
    {
      name: 'addToSave: a javascript: link',
      op: 'addToSave',
      send: { call: { body: { links: [{ url: 'javascript:alert(1)' }] } } },
      status: 400,
      message: 'body/links/0/url must be an http or https link',
    },
    {
      name: 'addToSave: no links',
      op: 'addToSave',
      send: { call: { body: {} } },
      status: 400,
      message: /links/,
    },
    {
      name: 'deleteToSave: not a number',
      op: 'deleteToSave',
      send: { call: { params: { link_id: 'abc' } } },
      status: 404,
      message: /./,
    },
    {
      name: 'deleteToSave: unknown id',
      op: 'deleteToSave',
      send: { call: { params: { link_id: '424242' } } },
      status: 404,
      message: 'link 424242 not found',
    },
  ];
}
