// The preview worker: decodes and parses an archive and builds its sanitized document off the main
// thread. One request per worker; started and terminated by `frame/run-preview-worker.ts`.
import {
  handlePreviewRequest,
  type PreviewMessage,
  type PreviewRequest,
} from './document/build-preview.ts';

// The app's TypeScript lib is DOM, not WebWorker: describe the part of the worker scope used here.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PreviewRequest>) => void) | null;
  postMessage(message: PreviewMessage): void;
};

scope.onmessage = (event) => {
  void handlePreviewRequest(event.data, (first) => scope.postMessage(first)).then((response) =>
    scope.postMessage(response),
  );
};
