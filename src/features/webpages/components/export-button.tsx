import { Button } from '../../../components/button.tsx';
import { useExportWebpages, type ExportSelection } from '../api/export-webpages.ts';

/** "Export": downloads the selection as a `.zip` (originals, folio-export.json, bookmarks.html). */
export function ExportButton({
  selection,
  label = 'Export',
}: {
  selection: ExportSelection;
  label?: string;
}) {
  const exporting = useExportWebpages();
  return (
    <Button
      onClick={() => exporting.mutate(selection)}
      disabled={exporting.isPending}
      aria-busy={exporting.isPending}
    >
      {label}
    </Button>
  );
}
