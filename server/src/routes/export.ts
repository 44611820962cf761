import type { FastifyInstance } from 'fastify';
import { badRequest, notFound } from '../http/errors.ts';
import { StreamedFile, type OperationRegistry } from '../http/operations.ts';
import type { components } from '../../../shared/contract/schema.gen.ts';
import {
  exportFileName,
  exportStream,
  MAX_SELECTED_IDS,
  prepareExport,
} from '../archive-io/export-archive.ts';
import type { ExportSelection } from '../archive-io/export-format.ts';
import type { ExportTickets } from '../archive-io/export-tickets.ts';
import type { RouteContext } from './context.ts';

/** Where export download links live (outside the API's token scope: see `registerExportDownloads`). */
export const EXPORT_DOWNLOADS_PREFIX = '/downloads/exports';

/** Room for 100,000 ids in the body of an export. */
const EXPORT_BODY_LIMIT = MAX_SELECTED_IDS * 80 + 64 * 1024;

/** Folio's extension: the export as a streamed `.zip`, and its short-lived download links. */
export function registerExportRoutes(
  registry: OperationRegistry,
  context: RouteContext,
  tickets: ExportTickets,
): void {
  registry.register(
    'exportArchive',
    async ({ body }) => {
      if (context.asHamsterBase) throw notFound('not found');
      return await exportAnswer(context, selectionOf(body));
    },
    { bodyLimit: EXPORT_BODY_LIMIT },
  );
  registry.register(
    'createExportLink',
    async ({ body }) => {
      if (context.asHamsterBase) throw notFound('not found');
      const selection = selectionOf(body);
      // Checked now, so that the link's download does not fail on what the caller can fix.
      await prepareExport(context.store, selection, context.now());
      const { ticket, expiresAt } = tickets.issue(selection);
      return { url: `${EXPORT_DOWNLOADS_PREFIX}/${ticket}`, expiresAt };
    },
    { bodyLimit: EXPORT_BODY_LIMIT },
  );
}

/**
 * `GET /downloads/exports/<ticket>`: its own scope, outside the API's token scope; what lets a
 * request through is the ticket (random, single use, short-lived), redeemed by the scope's hook
 * before any handler. Anything else under the prefix is a 404.
 */
export async function registerExportDownloads(
  app: FastifyInstance,
  context: RouteContext,
  tickets: ExportTickets,
): Promise<void> {
  await app.register(
    async (downloads) => {
      downloads.get<{ Params: { ticket: string } }>('/:ticket', async (request, reply) => {
        const selection = tickets.redeem(request.params.ticket);
        if (selection === undefined) throw notFound('this download link has expired or was used');
        const file = await exportAnswer(context, selection);
        return reply
          .type(file.type)
          .header('content-disposition', file.disposition)
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .send(file.stream);
      });
      downloads.all('/*', async () => {
        throw notFound('no such download');
      });
    },
    { prefix: EXPORT_DOWNLOADS_PREFIX },
  );
}

async function exportAnswer(
  context: RouteContext,
  selection: ExportSelection,
): Promise<StreamedFile> {
  const prepared = await prepareExport(context.store, selection, context.now());
  return new StreamedFile(
    exportStream(context.store, prepared),
    'application/zip',
    `attachment; filename="${exportFileName(prepared.exportedAt)}"`,
  );
}

type ExportRequest = components['schemas']['ExportRequest'];

/** The optional body (the contract validated it). */
function selectionOf(raw: unknown): ExportSelection {
  const body = raw as ExportRequest | undefined;
  if (body?.viewId !== undefined && body.ids !== undefined) {
    throw badRequest('export a view or a list of ids, not both');
  }
  if (body?.viewId !== undefined) return { kind: 'view', viewId: body.viewId };
  if (body?.ids !== undefined) return { kind: 'ids', ids: body.ids };
  return { kind: 'all' };
}
