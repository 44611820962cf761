import type { OperationRegistry } from '../http/operations.ts';
import type { RouteContext } from './context.ts';

export function registerMetaRoutes(registry: OperationRegistry, context: RouteContext): void {
  registry.register('getVersion', () =>
    // HamsterBase names itself with other fields than Folio's `name`.
    context.asHamsterBase ? { version: '0.9.2' } : { version: context.version, name: 'folio' },
  );
}
