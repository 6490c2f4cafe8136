-- Drives okf lsp through Neovim's own LSP client (0.7 and later): opens orders.md, waits for its
-- diagnostics, asks for hover and definition on the link to customers.md, and writes what it got,
-- one fact per line, to the file named by $OKF_NVIM_OUT.
local out = assert(os.getenv('OKF_NVIM_OUT'))
local okf = assert(os.getenv('OKF_NVIM_OKF'))
local root = assert(os.getenv('OKF_NVIM_ROOT'))
local lines = {}
local function say(s) table.insert(lines, s) end
local function finish()
  local f = assert(io.open(out, 'w'))
  f:write(table.concat(lines, '\n') .. '\n')
  f:close()
  vim.cmd('qa!')
end

vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/orders.md'))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = 'okf',
  cmd = { okf, 'lsp', '--now', '2026-06-15T00:00:00Z', '--debounce', '0s' },
  root_dir = root,
})
if not id then say('error: the client did not start'); finish() end
vim.lsp.buf_attach_client(buf, id)

local ok = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
if not ok then say('error: no diagnostics'); finish() end
local codes = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(codes, string.format('%s@%d:%d', tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)), d.lnum, d.col))
end
table.sort(codes)
say('diagnostics: ' .. table.concat(codes, ' '))

-- The link [customers](customers.md) on line 9 (0-based 8).
local line = vim.api.nvim_buf_get_lines(buf, 8, 9, false)[1]
local col = assert(line:find('customers.md', 1, true)) - 1
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 8, character = col } }
local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 10000)
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then
    local v = r.result.contents.value or ''
    say('hover: ' .. (v:find('human-reviewed', 1, true) and 'human-reviewed' or 'no tier') .. ', ' .. (v:find('draft', 1, true) and 'draft' or 'no status'))
  end
end
res = vim.lsp.buf_request_sync(buf, 'textDocument/definition', params, 10000)
for _, r in pairs(res or {}) do
  local loc = r.result
  if loc and loc[1] then loc = loc[1] end
  if loc and loc.uri then say('definition: ' .. vim.fn.fnamemodify(vim.uri_to_fname(loc.uri), ':t') .. ':' .. loc.range.start.line) end
end
vim.lsp.stop_client(id)
vim.wait(2000, function() return vim.lsp.client_is_stopped(id) end, 50)
finish()
