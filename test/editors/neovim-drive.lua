-- Neovim 0.7's built-in LSP client (Debian's `neovim`) driving `umpire lsp --stdio`, headless, as an
-- umpire's init.lua would set it up (docs/editors.md). Run by neovim.test.ts, which prepares the
-- workspace and compares what is written here (JSON) with what the CLI says of the same files.
local function env(name)
  local value = os.getenv(name)
  if not value then error(name .. ' is not set') end
  return value
end
local workspace = env('UMPIRE_WORKSPACE')
local result = { diagnostics = {}, messages = {}, notifications = {}, lenses = {}, steps = {} }

local function finish()
  pcall(vim.fn.writefile, { vim.fn.json_encode(result) }, env('UMPIRE_NVIM_RESULT'))
  vim.cmd('qa!')
end

-- Everything Neovim would show the umpire: the server's messages and Neovim's own warnings.
vim.notify = function(message) table.insert(result.notifications, message) end

local published = {}
local severity = { 'error', 'warning', 'info', 'hint' }
local handlers = {
  ['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
    published[params.uri] = params.diagnostics
    return vim.lsp.handlers['textDocument/publishDiagnostics'](err, params, ctx, config)
  end,
  ['window/showMessage'] = function(_, params) table.insert(result.messages, params.message) end,
}

local client_id = vim.lsp.start_client({
  name = 'umpire',
  cmd = { env('UMPIRE_NODE'), env('UMPIRE_BIN'), 'lsp', '--stdio' },
  root_dir = workspace,
  handlers = handlers,
})
local client = vim.lsp.get_client_by_id(client_id)

local function wait(what, condition, ms)
  if not vim.wait(ms or 20000, condition, 20) then error('timed out waiting for ' .. what) end
end

--- Opens a file of the workspace as a .battle buffer attached to the server; its diagnostics as `umpire check` prints them.
local function open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/' .. name))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'battle'
  vim.lsp.buf_attach_client(bufnr, client_id)
  local uri = vim.uri_from_bufnr(bufnr)
  wait('the diagnostics of ' .. name, function() return published[uri] ~= nil end)
  local lines = {}
  for _, d in ipairs(published[uri]) do
    table.insert(lines, string.format('%s:%d:%d %s %s %s', name, d.range.start.line + 1, d.range.start.character + 1,
      severity[d.severity or 1], d.code, d.message))
  end
  result.diagnostics[name] = lines
  return bufnr, uri
end

local function line_of(bufnr, pattern)
  for i, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local column = text:find(pattern)
    if column then return i, column end
  end
  error('no line matches ' .. pattern)
end

local function request(bufnr, method, params)
  local answers = vim.lsp.buf_request_sync(bufnr, method, params, 20000)
  local answer = answers and answers[client_id]
  if not answer or answer.err then error(method .. ' failed: ' .. vim.inspect(answer and answer.err)) end
  return answer.result
end

--- Picks the entry whose title starts with `title` when Neovim asks (vim.ui.select: several lenses, code actions).
local function choose(title)
  vim.ui.select = function(items, opts, on_choice)
    for i, item in ipairs(items) do
      local shown = opts.format_item and opts.format_item(item) or tostring(item)
      if vim.startswith(shown, title) then return on_choice(item, i) end
    end
    error('no choice starts with ' .. title)
  end
end

local function text_of(bufnr) return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') end

local ok, err = pcall(function()
  wait('the server to initialize', function() return client.initialized end)
  -- Neovim 0.7 answers no workspace/configuration: the settings are pushed.
  client.notify('workspace/didChangeConfiguration', { settings = { umpire = { outcomes = { recordNewSeeds = true } } } })

  for _, name in ipairs(vim.split(env('UMPIRE_EXAMPLES'), ',')) do open(name) end
  table.insert(result.steps, 'diagnostics')

  -- Hover on the engagement's name, completion inside it.
  local seed = open('scrud-seed.battle')
  local line, column = line_of(seed, 'engagement Example')
  local hover = request(seed, 'textDocument/hover', { textDocument = { uri = vim.uri_from_bufnr(seed) }, position = { line = line - 1, character = column + 11 } })
  result.hover = hover and hover.contents and (hover.contents.value or hover.contents) or vim.NIL
  local completion = request(seed, 'textDocument/completion', { textDocument = { uri = vim.uri_from_bufnr(seed) }, position = { line = line, character = 2 } })
  result.completion = {}
  for _, item in ipairs(completion.items or completion) do table.insert(result.completion, item.label) end
  table.insert(result.steps, 'hover and completion')

  -- Formatting: the file with its indentation taken away, formatted, saved.
  open('unindented.battle')
  vim.lsp.buf.formatting_sync(nil, 20000)
  vim.cmd('write')
  table.insert(result.steps, 'formatting')

  -- Rename a force at its declaration: every reference follows (the comments do not).
  local renamed = open('renamed.battle')
  line, column = line_of(renamed, 'force Attacker')
  vim.api.nvim_win_set_cursor(0, { line, column + 6 })
  vim.lsp.buf.rename('Assault')
  wait('the rename', function() return text_of(renamed):find('Assault') ~= nil end)
  vim.cmd('write')
  table.insert(result.steps, 'rename')

  -- The lenses, and Resolve run from them as an umpire does (:lua vim.lsp.codelens.run()).
  local lensed = open('lensed.battle')
  vim.lsp.codelens.refresh()
  wait('the code lenses', function() return #vim.lsp.codelens.get(lensed) > 0 end)
  for _, lens in ipairs(vim.lsp.codelens.get(lensed)) do
    table.insert(result.lenses, { title = lens.command.title, command = lens.command.command, line = lens.range.start.line })
  end
  vim.api.nvim_win_set_cursor(0, { vim.lsp.codelens.get(lensed)[1].range.start.line + 1, 0 })
  choose('Resolve')
  vim.lsp.codelens.run()
  wait('the outcome written by Resolve', function() return text_of(lensed):find('outcome entered') ~= nil end)
  vim.cmd('write')
  -- The Odds lens: Neovim has no Odds view, so the server answers the odds as Markdown, in a message.
  wait('the lenses after Resolve', function() return #vim.lsp.codelens.get(lensed) > 0 end)
  vim.api.nvim_win_set_cursor(0, { vim.lsp.codelens.get(lensed)[1].range.start.line + 1, 0 })
  choose('Odds')
  vim.lsp.codelens.run()
  wait('the odds as a message', function()
    for _, m in ipairs(result.messages) do if vim.startswith(m, '# Odds') then return true end end
    return false
  end)
  table.insert(result.steps, 'lenses')

  -- The same engagement resolved from the code-action menu (:lua vim.lsp.buf.code_action()).
  local acted = open('acted.battle')
  line = line_of(acted, 'engagement Example')
  vim.api.nvim_win_set_cursor(0, { line + 1, 2 })
  choose("Resolve 'Example'")
  vim.lsp.buf.code_action()
  wait('the outcome written by the code action', function() return text_of(acted):find('outcome entered') ~= nil end)
  vim.cmd('write')
  table.insert(result.steps, 'code action')
end)
if not ok then result.error = tostring(err) end
finish()
