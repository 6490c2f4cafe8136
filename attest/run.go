package attest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/okf-tools/okf/internal/sqllex"
	"github.com/okf-tools/okf/okf"

	// Drivers for the two runtimes okf executes: pure Go, so no C toolchain or client is needed.
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
)

// Runnable lists the runtimes `okf attest run` executes.
var Runnable = []string{"postgres", "sqlite"}

// ComputationText returns the computation to run (§10.3): the single block under `# Computation`
// or the file named by `computation`. Both, neither, several blocks or a missing file are errors.
func (c *Computation) ComputationText() (string, error) {
	hasFile := c.Concept.Frontmatter.Computation().Present()
	switch {
	case hasFile && len(c.inline) > 0:
		return "", fmt.Errorf("%s has both a `computation` path and a code block under # Computation; keep exactly one (§10.3)", c.Concept.Path)
	case hasFile:
		v := c.Concept.Frontmatter.Computation().Text()
		switch {
		case c.file.Escapes:
			return "", fmt.Errorf("%s: computation %q leaves the bundle and is never opened (D14)", c.Concept.Path, v)
		case c.file.Kind != okf.RefLocal:
			return "", fmt.Errorf("%s: computation %q is not a path inside the bundle", c.Concept.Path, v)
		case !c.file.Exists || c.file.IsDir:
			return "", fmt.Errorf("%s: computation file %q does not exist in the bundle", c.Concept.Path, v)
		}
		return c.Source.Text, nil
	case len(c.inline) == 0:
		return "", fmt.Errorf("%s has no computation: add a code block under # Computation or a `computation` path (§10.3)", c.Concept.Path)
	case len(c.inline) > 1:
		return "", fmt.Errorf("%s has %d code blocks under # Computation; the computation must be a single block (§10.3)", c.Concept.Path, len(c.inline))
	}
	return c.Source.Text, nil
}

// Receipt is what `okf attest run` returns for a run (§10.2 executor.receipt): the evidence the
// attester inspects. ExecutedSQL keeps the placeholders as written; values travel separately.
type Receipt struct {
	RunID       string         `json:"run_id"`
	Concept     string         `json:"concept"`
	Runtime     string         `json:"runtime"`
	ExecutedSQL string         `json:"executed_sql"`
	DriverSQL   string         `json:"driver_sql,omitempty"`
	Parameters  map[string]any `json:"parameters"`
	ExecutedAt  string         `json:"executed_at"`
	Columns     []string       `json:"columns"`
	// Result is the first row's cell values in select order (null when there is no row).
	Result   []any   `json:"result"`
	RowCount int     `json:"row_count"`
	Error    *string `json:"error,omitempty"`
}

// RunOptions say where a computation runs.
type RunOptions struct {
	// DB is the SQLite database file (runtime sqlite). It is opened read-only.
	DB string
	// DSN is the PostgreSQL connection string (runtime postgres). The query runs in a read-only
	// transaction.
	DSN string
	// Now stamps the receipt (D11: injected so output is reproducible).
	Now time.Time
	// Timeout stops a query that runs longer (DefaultQueryTimeout when zero). On PostgreSQL it is
	// also the transaction's statement_timeout.
	Timeout time.Duration
}

// DefaultQueryTimeout bounds a computation's run when RunOptions.Timeout is zero.
const DefaultQueryTimeout = 60 * time.Second

// sqliteLimitAttached is SQLITE_LIMIT_ATTACHED: the most databases ATTACH may add.
const sqliteLimitAttached = 7

// sqliteLimitLength is SQLITE_LIMIT_LENGTH: the largest string, blob or row SQLite builds.
const sqliteLimitLength = 0

// The caps on what a computation's query may answer. The query is the bundle's, so its result is
// hostile input: `SELECT randomblob(400000000)` took 7 GB of memory and wrote a 1.5 GB receipt,
// and a recursive CTE answers as many rows as the query timeout allows. Each cap holds inside the
// query's own time budget: past one, the query is stopped and the receipt's error names the cap.
const (
	// MaxResultRows is the most rows a result may have (the receipt keeps the first; the others
	// are counted in row_count).
	MaxResultRows = 10_000
	// MaxResultCells is the most cells (rows times columns) a result may have.
	MaxResultCells = 100_000
	// MaxResultBytes is the most bytes a result's column names and cells may hold in all.
	MaxResultBytes = 1 << 20
	// MaxValueBytes is the largest value (string, blob or row) SQLite may build while it runs the
	// query (its SQLITE_LIMIT_LENGTH): without it, SQLite builds a 400 MB zeroblob before the
	// first row comes back. On PostgreSQL it is the largest message (one row) okf reads from the
	// server.
	MaxValueBytes = 16 << 20
)

// CapError says a query's result passed one of the caps (MaxResultRows, MaxResultCells,
// MaxResultBytes, MaxValueBytes); the query was stopped.
type CapError struct {
	// Cap is the constant's name ("attest.MaxResultRows"), Limit its value; Text says what passed
	// it, with %d for the limit.
	Cap   string
	Limit int
	Text  string
}

func (e *CapError) Error() string {
	return "the query was stopped: " + fmt.Sprintf(e.Text, e.Limit) + " (" + e.Cap + ")"
}

var (
	errRows  = &CapError{Cap: "attest.MaxResultRows", Limit: MaxResultRows, Text: "its result has more than %d rows"}
	errCells = &CapError{Cap: "attest.MaxResultCells", Limit: MaxResultCells, Text: "its result has more than %d cells (rows times columns)"}
	errBytes = &CapError{Cap: "attest.MaxResultBytes", Limit: MaxResultBytes, Text: "its result holds more than %d bytes"}
	errValue = &CapError{Cap: "attest.MaxValueBytes", Limit: MaxValueBytes, Text: "it built a value (string, blob or row) of more than %d bytes"}
)

// denyAttach is the SQLite authorizer of `okf attest run`: a sanctioned query reads the one
// database it was given, so ATTACH (which opens, or creates, any other file) and DETACH are denied.
func denyAttach(action sqlite.AuthorizerActionCode, _, _, _, _ string) sqlite.AuthorizerReturnCode {
	if action == sqlite.AuthAttach || action == sqlite.AuthDetach {
		return sqlite.AuthorizerDeny
	}
	return sqlite.AuthorizerOK
}

// sqliteURI is the read-only URI for a database file. The path is absolute and percent-escaped,
// so a name holding '?', '#' or '%' opens that file rather than being read as URI parameters.
func sqliteURI(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	u := url.URL{Path: filepath.ToSlash(abs)}
	return "file:" + u.EscapedPath() + "?mode=ro&_pragma=query_only(1)", nil
}

// Prepare binds the parameters of a run and returns them typed, or the reason no query may run:
// an unsupported runtime, a computation that cannot be loaded, a missing, undeclared or ill-typed
// parameter, or a placeholder that no parameter declares.
func Prepare(comp *Computation, supplied map[string]string) (text string, values map[string]any, err error) {
	rt := strings.ToLower(comp.Runtime)
	if rt != "sqlite" && rt != "postgres" && rt != "postgresql" {
		if comp.Runtime == "" {
			return "", nil, fmt.Errorf("%s declares no runtime; okf runs: %s", comp.Concept.Path, strings.Join(Runnable, ", "))
		}
		return "", nil, fmt.Errorf("%s has runtime %q; okf runs: %s", comp.Concept.Path, comp.Runtime, strings.Join(Runnable, ", "))
	}
	text, err = comp.ComputationText()
	if err != nil {
		return "", nil, err
	}
	values, err = Bind(comp.Params, supplied, true)
	var problems []string
	var be *BindError
	if errors.As(err, &be) {
		problems = be.Problems
	} else if err != nil {
		return "", nil, err
	}
	declared := map[string]bool{}
	for _, p := range comp.Params {
		declared[p.Name] = true
	}
	seen := map[string]bool{}
	for _, ph := range sqllex.Placeholders(text, comp.Runtime) {
		if !declared[ph.Name] && !seen[ph.Name] {
			seen[ph.Name] = true
			problems = append(problems, fmt.Sprintf("the computation uses @%s, which no parameter declares", ph.Name))
		}
	}
	if len(problems) > 0 {
		return "", nil, &BindError{Problems: problems}
	}
	return text, values, nil
}

// Execute runs a prepared computation and returns its receipt. A query that fails is not a Go
// error: the receipt carries it in Error (as the BigQuery skill does), so the attester sees it.
// The error return is for a run that could not start (no database, bad DSN).
func Execute(ctx context.Context, comp *Computation, text string, values map[string]any, opts RunOptions) (*Receipt, error) {
	rec := &Receipt{
		Concept:     comp.ID,
		Runtime:     comp.Runtime,
		ExecutedSQL: text,
		Parameters:  values,
		ExecutedAt:  opts.Now.UTC().Format(time.RFC3339Nano),
		Columns:     []string{},
	}
	if rec.Parameters == nil {
		rec.Parameters = map[string]any{}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultQueryTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var db *sql.DB
	var query string
	var args []any
	var setup func(*sql.Conn) error
	switch strings.ToLower(comp.Runtime) {
	case "sqlite":
		if opts.DB == "" {
			return nil, errors.New("runtime sqlite needs --db PATH (an existing SQLite database file)")
		}
		if err := okf.CheckReadPath(opts.DB); err != nil {
			return nil, fmt.Errorf("cannot open SQLite database: %v", err) // a link in a checkout
		}
		if st, err := os.Stat(opts.DB); err != nil || st.IsDir() {
			return nil, fmt.Errorf("cannot open SQLite database %q: not an existing file", opts.DB)
		}
		uri, err := sqliteURI(opts.DB)
		if err != nil {
			return nil, fmt.Errorf("cannot open SQLite database %q: %v", opts.DB, err)
		}
		db, err = sql.Open("sqlite", uri)
		if err != nil {
			return nil, fmt.Errorf("cannot open SQLite database %q: %v", opts.DB, err)
		}
		setup = func(c *sql.Conn) error {
			if _, err := sqlite.Limit(c, sqliteLimitAttached, 0); err != nil {
				return err
			}
			if _, err := sqlite.Limit(c, sqliteLimitLength, MaxValueBytes); err != nil {
				return err
			}
			return c.Raw(func(dc any) error {
				r, ok := dc.(sqlite.AuthorizerRegisterer)
				if !ok {
					return fmt.Errorf("the SQLite driver offers no authorizer")
				}
				return r.RegisterAuthorizer(denyAttach)
			})
		}
		query = text
		seen := map[string]bool{}
		for _, ph := range sqllex.Placeholders(text, comp.Runtime) {
			if !seen[ph.Name] {
				seen[ph.Name] = true
				args = append(args, sql.Named(ph.Name, values[ph.Name]))
			}
		}
	default: // postgres
		if opts.DSN == "" {
			return nil, errors.New("runtime postgres needs --dsn (a PostgreSQL connection string)")
		}
		cfg, err := pgx.ParseConfig(opts.DSN)
		if err != nil {
			return nil, fmt.Errorf("cannot open PostgreSQL connection: %v", err)
		}
		// No message (a row) larger than MaxValueBytes is read: pgx would allocate it whole first.
		cfg.BuildFrontend = func(r io.Reader, w io.Writer) *pgproto3.Frontend {
			f := pgproto3.NewFrontend(r, w)
			f.SetMaxBodyLen(MaxValueBytes)
			return f
		}
		db = stdlib.OpenDB(*cfg)
		var order []string
		query, order = positional(text, comp.Runtime)
		rec.DriverSQL = query
		for _, n := range order {
			args = append(args, values[n])
		}
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to the %s database: %v", comp.Runtime, err)
	}
	defer conn.Close()
	if err := conn.PingContext(ctx); err != nil {
		return nil, fmt.Errorf("cannot connect to the %s database: %v", comp.Runtime, err)
	}
	if setup != nil {
		if err := setup(conn); err != nil {
			return nil, fmt.Errorf("cannot restrict the %s connection: %v", comp.Runtime, err)
		}
	}
	rec.RunID = runID(rec)
	if err := query1(ctx, conn, comp.Runtime, query, args, timeout, rec); err != nil {
		err = capOf(err)
		msg := err.Error()
		var ce *CapError
		if errors.As(err, &ce) {
			// The cap, not the timeout, stopped it (the cancel that stops a PostgreSQL query can
			// look like one).
		} else if ctx.Err() == context.DeadlineExceeded {
			msg = fmt.Sprintf("the query ran longer than the %s query timeout and was stopped (%v)", timeout, err)
		}
		rec.Error = &msg
		rec.Result = nil
		rec.Columns = []string{}
		rec.RowCount = 0
	}
	return rec, nil
}

// query1 runs the query (read-only) and fills the receipt's columns, first row and row count.
// On PostgreSQL the transaction is READ ONLY and its statement_timeout is the query timeout, so the
// server stops the query even if the client is gone.
func query1(ctx context.Context, conn *sql.Conn, runtime, query string, args []any, timeout time.Duration, rec *Receipt) error {
	pg := strings.ToLower(runtime) != "sqlite"
	var opts *sql.TxOptions
	if pg {
		opts = &sql.TxOptions{ReadOnly: true}
	}
	tx, err := conn.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if pg {
		ms := max(timeout.Milliseconds(), 1)
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET LOCAL statement_timeout = %d", ms)); err != nil {
			return err
		}
	}
	// Stopping at a cap cancels the query: a PostgreSQL result is otherwise read to its end when
	// the rows are closed.
	qctx, stop := context.WithCancel(ctx)
	defer stop()
	rows, err := tx.QueryContext(qctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	capped := func(err error) error {
		stop()
		return err
	}
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	rec.Columns = cols
	size := 0
	for _, c := range cols {
		size += len(c)
	}
	if len(cols) > MaxResultCells {
		return capped(errCells)
	}
	if size > MaxResultBytes {
		return capped(errBytes)
	}
	cells := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range cells {
		ptrs[i] = &cells[i]
	}
	for rows.Next() {
		rec.RowCount++
		switch {
		case rec.RowCount > MaxResultRows:
			return capped(errRows)
		case rec.RowCount*len(cols) > MaxResultCells:
			return capped(errCells)
		}
		for i := range cells {
			cells[i] = nil
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for _, c := range cells {
			size += cellSize(c)
		}
		if size > MaxResultBytes {
			return capped(errBytes)
		}
		if rec.RowCount == 1 {
			first := make([]any, len(cells))
			for i, c := range cells {
				first[i] = jsonCell(c)
			}
			rec.Result = first
		}
	}
	return rows.Err()
}

// cellSize is the bytes a scanned cell counts for against MaxResultBytes: its length for text and
// blobs, eight for anything else.
func cellSize(v any) int {
	switch x := v.(type) {
	case []byte:
		return len(x)
	case string:
		return len(x)
	}
	return 8
}

// capOf words the drivers' own refusals as the cap that caused them: SQLite's SQLITE_TOOBIG
// (a value past MaxValueBytes) and pgx's refusal of a message past it.
func capOf(err error) error {
	var ce *CapError
	var big *pgproto3.ExceededMaxBodyLenErr
	switch {
	case errors.As(err, &ce):
		return err
	case errors.As(err, &big):
		return errValue
	}
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqliteTooBig {
		return errValue
	}
	return err
}

// sqliteTooBig is SQLite's primary result code for a value past SQLITE_LIMIT_LENGTH.
const sqliteTooBig = 18

// jsonCell turns a driver value into one that encodes to JSON faithfully.
func jsonCell(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case fmt.Stringer:
		return x.String()
	}
	return v
}

// runID names a run by what it ran and when (the injected clock), so the same run described twice
// gets the same id and output stays reproducible (D11).
func runID(r *Receipt) string {
	names := make([]string, 0, len(r.Parameters))
	for k := range r.Parameters {
		names = append(names, k)
	}
	sort.Strings(names)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", r.Runtime, r.Concept, r.ExecutedSQL, r.ExecutedAt)
	for _, k := range names {
		v, _ := json.Marshal(r.Parameters[k])
		fmt.Fprintf(h, "%s=%s\x00", k, v)
	}
	return "okf-" + strings.ToLower(r.Runtime) + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}
