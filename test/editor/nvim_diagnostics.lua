-- Neovim's built-in LSP client on placelint-clangd: opens the file given on
-- the command line, waits until Neovim shows diagnostics for it, and writes
-- them out as Neovim holds them (vim.diagnostic), one JSON object a line.
-- Run by test_neovim.py:
--   nvim --headless -u NONE -i NONE -n -c 'luafile nvim_diagnostics.lua' FILE
-- with PLACELINT_CLANGD (the server), NVIM_DIAGNOSTICS_OUT (the output file)
-- and NVIM_TIMEOUT_MS set. Written for Neovim 0.7 (Debian 12) and later.
local server = os.getenv('PLACELINT_CLANGD')
local out = os.getenv('NVIM_DIAGNOSTICS_OUT')
local timeout = tonumber(os.getenv('NVIM_TIMEOUT_MS'))

local buffer = vim.api.nvim_get_current_buf()
vim.bo[buffer].filetype = 'cpp'
local client = vim.lsp.start_client({
  name = 'placelint-clangd',
  cmd = { server, '--background-index=false' },
  root_dir = vim.fn.expand('%:p:h'),
})
vim.lsp.buf_attach_client(buffer, client)

vim.wait(timeout, function() return #vim.diagnostic.get(buffer) > 0 end, 100)

local lines = {}
for _, d in ipairs(vim.diagnostic.get(buffer)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(lines, vim.fn.json_encode({
    lnum = d.lnum, col = d.col, severity = d.severity, source = d.source,
    code = d.code or lsp.code, message = d.message,
  }))
end
vim.fn.writefile(lines, out)
vim.lsp.stop_client(client)
vim.cmd('qall!')
