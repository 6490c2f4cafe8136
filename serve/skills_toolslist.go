package serve

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolsList returns the tools/list result this server gives a host, as JSON, the way a host
// receives it: okf budget counts what it costs a model, which a host sends with every call. It
// asks the server through an in-memory session of the current protocol era.
func (s *Server) ToolsList(ctx context.Context) ([]byte, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	cl := mcp.NewClient(&mcp.Implementation{Name: "okf-budget", Version: s.opts.Version}, nil)
	cs, err := cl.Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}
