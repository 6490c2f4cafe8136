//go:build !linux

package okf

import (
	"io/fs"
	"os"
)

// folderOS is an os.Root on the folder: a file is opened in it by its bare name.
type folderOS struct{ fsys *os.Root }

func (h *folderHandle) openIn(fsys *os.Root, folder string) error {
	sub, err := fsys.OpenRoot(folder)
	if err != nil {
		return err
	}
	h.fsys = sub
	return nil
}

func (h *folderHandle) closeOS() { h.fsys.Close() }

// read reads the regular file base of the folder; ok is false when it is something else, or could
// not be opened, for the caller to go the FileSystem's way.
func (h *folderHandle) read(base string, limit int64, buf []byte) (data []byte, ok bool, err error) {
	f, err := h.fsys.OpenFile(base, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !typeOK(st.Mode(), false) {
		return nil, false, nil
	}
	data, err = readCapped(f, st.Size(), limit, buf)
	return data, true, err
}

// readDirTyped is the FileSystem's own listing elsewhere (ok false).
func readDirTyped(*os.Root, string) ([]fs.DirEntry, bool) { return nil, false }
