import { UploadPage } from '../features/upload/components/upload-page.tsx';

export function Component() {
  return (
    <>
      <title>Upload · Folio</title>
      <UploadPage />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from './route-error-boundary.tsx';
