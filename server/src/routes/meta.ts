import type { OperationRegistry } from '../http/operations.ts';
import type { RouteContext } from './context.ts';

export function registerMetaRoutes(registry: OperationRegistry, context: RouteContext): void {
  registry.register('getVersion', () => ({ version: context.version, name: 'folio' }));
}
