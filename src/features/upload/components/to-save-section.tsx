import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { ChangeEvent } from 'react';

import { Button } from '../../../components/button.tsx';
import { toSaveOptions, useAddToSave, useDeleteToSave } from '../api/to-save.ts';
import type { ToSaveLink } from '../api/to-save.ts';

/** Rows shown; the rest is counted. */
const SHOWN = 500;

const loadBookmarks = () => import('../../../../shared/formats/netscape-bookmarks.ts');

function ToSaveRow({ link }: { link: ToSaveLink }) {
  const remove = useDeleteToSave();
  return (
    <li className="to-save__row">
      <a href={link.url} target="_blank" rel="noopener noreferrer">
        {link.title || link.url}
      </a>
      {link.labels.length > 0 ? (
        <span className="to-save__labels">
          {link.labels.map((label) => (
            <span className="to-save__label" key={label}>
              {label}
            </span>
          ))}
        </span>
      ) : null}
      {link.addTime !== null ? (
        <span className="to-save__date">
          bookmarked {new Date(link.addTime).toLocaleDateString()}
        </span>
      ) : null}
      {link.saved ? <span className="to-save__saved">already saved</span> : null}
      <Button
        onClick={() => remove.mutate(link.id)}
        disabled={remove.isPending}
        aria-label={`Saved — remove “${link.title || link.url}” from the list`}
      >
        Saved — remove
      </Button>
    </li>
  );
}

/** "To save": links imported from a bookmarks file, to open and save by hand. */
export function ToSaveSection() {
  const list = useQuery(toSaveOptions());
  const add = useAddToSave();
  const inputRef = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const onChoose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setMessage(null);
    try {
      const { parseBookmarks, BOOKMARKS_MAX_BYTES } = await loadBookmarks();
      if (file.size > BOOKMARKS_MAX_BYTES) {
        throw new Error(`the file is larger than ${BOOKMARKS_MAX_BYTES / 1024 / 1024} MB`);
      }
      const { bookmarks, skipped } = parseBookmarks(await file.text());
      const { added, existing } = await add.mutateAsync(bookmarks);
      const parts = [
        `${added} links added to the list to save`,
        existing ? `${existing} were already in it` : '',
        skipped ? `${skipped} links that are not http(s) were skipped` : '',
      ].filter(Boolean);
      setMessage({ text: `${file.name}: ${parts.join(', ')}.`, error: false });
    } catch (error) {
      setMessage({
        text: `${file.name} could not be imported: ${error instanceof Error ? error.message : String(error)}`,
        error: true,
      });
    }
  };

  const data = list.data;
  return (
    <section className="to-save" aria-labelledby="to-save-title">
      <div className="upload-queue__header">
        <h2 className="section-title" id="to-save-title">
          To save
        </h2>
        {data?.supported ? (
          <div className="upload-queue__actions">
            <Button onClick={() => inputRef.current?.click()} disabled={add.isPending}>
              Import bookmarks file
            </Button>
            <input
              ref={inputRef}
              type="file"
              accept=".html,.htm"
              hidden
              aria-label="Bookmarks file to import"
              onChange={(event) => void onChoose(event)}
            />
          </div>
        ) : null}
      </div>
      {data && !data.supported ? (
        <p className="to-save__note">
          Importing a bookmarks file needs Folio&apos;s server: this archive has no list to save,
          and nothing was written to it.
        </p>
      ) : (
        <p className="to-save__note">
          A bookmarks file (exported by a browser, Pocket or Linkwarden) is imported as a list to
          save: Folio cannot fetch live pages. Its folders and tags become labels. Open each link,
          save the page, and upload it here; a link whose page is in the archive is marked “already
          saved”.
        </p>
      )}
      {message ? (
        <p className={message.error ? 'import-panel__error' : 'to-save__message'} role="status">
          {message.text}
        </p>
      ) : null}
      {list.isError ? (
        <p className="import-panel__error">Could not load the list to save.</p>
      ) : null}
      {data?.supported && data.links.length > 0 ? (
        <>
          <p className="to-save__count">
            {data.links.length} {data.links.length === 1 ? 'link' : 'links'} to save
          </p>
          <ul className="to-save__list" aria-label="Links to save">
            {data.links.slice(0, SHOWN).map((link) => (
              <ToSaveRow key={link.id} link={link} />
            ))}
          </ul>
          {data.links.length > SHOWN ? <p>… and {data.links.length - SHOWN} more</p> : null}
        </>
      ) : null}
    </section>
  );
}
