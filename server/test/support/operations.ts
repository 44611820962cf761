import type { OperationId } from '../../src/http/operations.ts';

/**
 * Every operation of the contract, written out: a test that compares with this list fails when an
 * operation is added to or dropped from openapi/archive.yaml, until the list (and what the test
 * covers) follows.
 */
export const ALL_OPERATIONS: readonly OperationId[] = [
  'getVersion',
  'getFacets',
  'listWebpages',
  'uploadWebpage',
  'getWebpage',
  'patchWebpage',
  'deleteWebpage',
  'getWebpageContent',
  'createHighlight',
  'patchHighlight',
  'deleteHighlight',
  'searchWebpages',
  'listViews',
  'createView',
  'previewView',
  'getView',
  'patchView',
  'deleteView',
  'listViewWebpages',
  'getViewFeed',
  'enableViewFeed',
  'disableViewFeed',
  'rotateViewFeed',
  'listHighlights',
  'listToSave',
  'addToSave',
  'deleteToSave',
  'exportArchive',
  'createExportLink',
];
