package serve

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// settle is how long the bundle must be quiet after a change before it is reloaded: an editor's
// save (write to a temporary file, rename over the old one) or a git checkout is many events.
const settle = 150 * time.Millisecond

// Reload loads the bundle again and swaps it in. A file that now has errors while its last version
// had none is served from that last version (and reported); a bundle folder that cannot be read at
// all keeps the whole last snapshot. Sessions that can receive it are sent
// notifications/resources/list_changed when the list of resources changed.
func (s *Server) Reload() error {
	s.reload.Lock()
	defer s.reload.Unlock()
	b, texts, err := load(&s.opts)
	if err != nil {
		s.opts.report("reload: %v; still serving the last good version", err)
		return err
	}
	old := s.snap.Load()
	snap, notes := build(b, texts, &s.opts, old)
	s.snap.Store(snap)
	for _, n := range notes {
		s.opts.report("reload: %s", n)
	}
	if listChanged(old, snap) {
		s.notifyListChanged()
	}
	// Every resource whose text changed or that went away: hosts subscribed to it are told (the
	// SDK sends only to sessions subscribed to that URI, by resources/subscribe or, in 2026-07-28,
	// on their subscriptions/listen stream).
	for _, uri := range updated(old, snap) {
		s.mcp.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
	s.opts.report("reloaded %s: %d concepts, %d conformance errors", s.opts.Dir, snap.concepts, len(snap.errors))
	return nil
}

// updated lists the URIs of a whose text differs in b or that b no longer has, and those new in b
// (a host may have subscribed before a concept existed), sorted.
func updated(a, b *snapshot) []string {
	var uris []string
	for _, d := range a.docs {
		if n := b.byURI[d.uri]; n == nil || !bytes.Equal(n.text, d.text) {
			uris = append(uris, d.uri)
		}
	}
	for _, d := range b.docs {
		if a.byURI[d.uri] == nil {
			uris = append(uris, d.uri)
		}
	}
	slices.Sort(uris)
	return uris
}

// listChanged reports whether resources/list would answer differently.
func listChanged(a, b *snapshot) bool {
	if len(a.docs) != len(b.docs) {
		return true
	}
	for _, d := range b.docs {
		o := a.byURI[d.uri]
		if o == nil || o.title != d.title || o.description != d.description || len(o.text) != len(d.text) {
			return true
		}
	}
	return false
}

// Watch reloads the bundle whenever a file under it changes, until ctx is done. Errors of the
// watcher are reported and watching goes on.
func (s *Server) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watching %s: %w", s.opts.Dir, err)
	}
	defer w.Close()
	// While watched, what a host keeps may be outdated within a second of an edit (ttl).
	s.watching.Store(true)
	defer s.watching.Store(false)
	watched := map[string]bool{}
	sync := func() {
		dirs := []string{s.opts.Dir}
		snap := s.snap.Load()
		for _, p := range snap.bundle.Files() {
			if _, isDir := snap.bundle.Stat(p); isDir {
				dirs = append(dirs, filepath.Join(s.opts.Dir, filepath.FromSlash(p)))
			}
		}
		for _, d := range dirs {
			if watched[d] {
				continue
			}
			if err := w.Add(d); err != nil {
				s.opts.report("watch %s: %v", d, err)
				continue
			}
			watched[d] = true
		}
	}
	sync()
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return nil
		case _, ok := <-w.Events:
			if !ok {
				return nil
			}
			if timer == nil {
				timer = time.NewTimer(settle)
				fire = timer.C
			} else {
				timer.Reset(settle)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.opts.report("watch: %v", err)
		case <-fire:
			timer, fire = nil, nil
			if s.Reload() == nil {
				// A removed folder drops out of the watcher by itself; a new one is added here.
				for d := range watched {
					watched[d] = false
				}
				for _, d := range w.WatchList() {
					watched[d] = true
				}
				sync()
			}
		}
	}
}
