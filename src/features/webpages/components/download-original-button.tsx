import { Button } from '../../../components/button.tsx';
import { useDownloadOriginal } from '../api/download-original.ts';
import type { Webpage } from '../api/get-webpage.ts';

/** "Download original": saves the webpage's original file (and says so in a toast). */
export function DownloadOriginalButton({
  webpage,
}: {
  webpage: Pick<Webpage, 'id' | 'title' | 'link' | 'ext'>;
}) {
  const download = useDownloadOriginal();
  return (
    <Button
      onClick={() => download.mutate(webpage)}
      disabled={download.isPending}
      aria-busy={download.isPending}
    >
      Download original
    </Button>
  );
}
