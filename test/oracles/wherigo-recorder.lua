-- The test oracle of #42: a stand-in Wherigo library that records what a cartridge builds when its
-- main chunk really runs (Debian's lua5.1), so the static analysis in src/formats/gwc/analysis can
-- be checked against the cartridge itself. Tests only: the library never runs Lua.
--
--   lua5.1 wherigo-recorder.lua <file>    (a Lua 5.1 chunk, size_t as this lua5.1 was built with, or source)
--
-- Prints one line: a JSON array with one ObjectFacts (src/formats/gwc/analysis/types.ts) per
-- object, in creation order. Objects are what the Wherigo.Z* constructors return (ZonePoint,
-- Distance and Bearing are plain values); a constructor's table argument's fields become the
-- object's fields; a field is null when the cartridge never sets it (no player defaults). Texts
-- are written byte for byte, each byte >= 0x80 as \u00XX, so the caller decodes them as the
-- library decodes a Lua string. Handlers are never run. Anything the main chunk needs that is
-- not provided here fails loudly (stderr, exit status 3) rather than being guessed.

-- Everything used after the chunk ran is captured first: the cartridge shares these globals.
local format, byte, gsub, concat = string.format, string.byte, string.gsub, table.concat
local write, stderr, exit = io.write, io.stderr, os.exit
local type, pairs, ipairs, tostring, error, rawset, rawget = type, pairs, ipairs, tostring, error, rawset, rawget
local setmetatable, getmetatable, xpcall, traceback = setmetatable, getmetatable, xpcall, debug.traceback

local path = arg and arg[1]
if not path then
  stderr:write('usage: lua5.1 wherigo-recorder.lua <chunk-or-source>\n')
  exit(2)
end

-- ─── Recording ──────────────────────────────────────────────────────────────────────────────────

local objects = {} -- { obj, kind, maker } in creation order
local numberOf = {} -- object table -> its 0-based number

-- Methods a Wherigo object has in the players; none does anything here (nothing is played).
local objectMethods = {}
for _, m in ipairs({ 'MoveTo', 'Contains', 'Start', 'Stop', 'Reset', 'GetActiveVisibleZones', 'RequestSync', 'Sync' }) do
  objectMethods[m] = function() end
end
local objectMeta = { __index = objectMethods }

local function constructor(kind, maker)
  return function(a)
    local obj = setmetatable({}, objectMeta)
    objects[#objects + 1] = { obj = obj, kind = kind, maker = maker }
    numberOf[obj] = #objects - 1
    if type(a) == 'table' then
      if numberOf[a] ~= nil then
        rawset(obj, 'Cartridge', a) -- `Wherigo.ZItem(cart)`: the cartridge it belongs to
      elseif getmetatable(a) == nil then
        for k, v in pairs(a) do rawset(obj, k, v) end -- `Wherigo.ZItem{ Cartridge = cart, Container = Player }`
      end
    end
    return obj
  end
end

-- ─── Plain values ───────────────────────────────────────────────────────────────────────────────

local zonePointMeta = {}
local function ZonePoint(lat, lon, alt)
  return setmetatable({ latitude = lat, longitude = lon, altitude = alt }, zonePointMeta)
end

local metres = { m = 1, meters = 1, metres = 1, km = 1000, kilometers = 1000, kilometres = 1000, ft = 0.3048, feet = 0.3048,
  mi = 1609.344, miles = 1609.344, nauticalmiles = 1852 }
local function toMetres(unit)
  local f = metres[type(unit) == 'string' and unit:lower() or 'meters']
  if not f then error('recorder: unknown distance unit ' .. tostring(unit), 3) end
  return f
end
local distanceMeta = { __index = { GetValue = function(self, unit) return self.metres / toMetres(unit) end } }
local function Distance(value, unit)
  return setmetatable({ value = value, unit = unit, metres = (value or 0) * toMetres(unit) }, distanceMeta)
end

local bearingMeta = {}
local function Bearing(value) return setmetatable({ value = value }, bearingMeta) end

-- ─── The Wherigo module ─────────────────────────────────────────────────────────────────────────

local PLAYER = setmetatable({ Name = 'Player' }, objectMeta)
local INVALID = setmetatable({}, zonePointMeta) -- `Wherigo.INVALID_ZONEPOINT`: no coordinates

local W = {
  ZCartridge = constructor('cartridge', 'Wherigo.ZCartridge'),
  Zone = constructor('zone', 'Wherigo.Zone'),
  ZItem = constructor('item', 'Wherigo.ZItem'),
  ZCharacter = constructor('character', 'Wherigo.ZCharacter'),
  ZTask = constructor('task', 'Wherigo.ZTask'),
  ZTimer = constructor('timer', 'Wherigo.ZTimer'),
  ZInput = constructor('input', 'Wherigo.ZInput'),
  ZMedia = constructor('media', 'Wherigo.ZMedia'),
  ZCommand = constructor('command', 'Wherigo.ZCommand'),
  ZonePoint = ZonePoint,
  Distance = Distance,
  Bearing = Bearing,
  Player = PLAYER,
  INVALID_ZONEPOINT = INVALID,
  -- Screens and log levels: only compared and passed on by cartridges.
  MAINSCREEN = 0, LOCATIONSCREEN = 1, ITEMSCREEN = 2, INVENTORYSCREEN = 3, TASKSCREEN = 4, DETAILSCREEN = 5,
  LOGDEBUG = 150, LOGCARTRIDGE = 151, LOGINFO = 152, LOGWARNING = 153, LOGERROR = 154,
  NoCaseEquals = function(a, b)
    return type(a) == 'string' and type(b) == 'string' and a:lower() == b:lower()
  end,
}
-- What a player shows or plays: nothing happens while the main chunk runs.
for _, f in ipairs({ 'MessageBox', 'Dialog', 'GetInput', 'ShowScreen', 'PlayAudio', 'StopSound', 'Alert', 'LogMessage',
  'ShowStatusText', 'Command', 'RequestSync' }) do
  W[f] = function() end
end
-- Another Wherigo.Z* constructor is an object of kind `other`; anything else is not provided: fail loudly.
setmetatable(W, { __index = function(t, key)
  if type(key) == 'string' and key:match('^Z') then
    local c = constructor('other', 'Wherigo.' .. key)
    rawset(t, key, c)
    return c
  end
  error('recorder: Wherigo.' .. tostring(key) .. ' is not provided by the recorder', 2)
end })

package.preload['Wherigo'] = function()
  Wherigo = W
  return W
end

-- ─── JSON ───────────────────────────────────────────────────────────────────────────────────────

local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function jsonString(s)
  return '"' .. gsub(s, '[%c"\\\128-\255]', function(c) return escapes[c] or format('\\u%04x', byte(c)) end) .. '"'
end

local function jsonNumber(x, where)
  if x ~= x or x == 1 / 0 or x == -1 / 0 then error('recorder: ' .. where .. ' is ' .. tostring(x), 0) end
  return format('%.17g', x)
end

local function describe(v)
  if getmetatable(v) == zonePointMeta then return 'a ZonePoint' end
  if getmetatable(v) == distanceMeta then return 'a Distance' end
  return 'a ' .. type(v)
end

-- Each field kind: nil is null; a value of another type fails (the facts have no place for it).
local function text(v, where)
  if v == nil then return 'null' end
  if type(v) ~= 'string' then error('recorder: ' .. where .. ' is ' .. describe(v) .. ', not a string', 0) end
  return jsonString(v)
end

local function boolean(v, where)
  if v == nil then return 'null' end
  if type(v) ~= 'boolean' then error('recorder: ' .. where .. ' is ' .. describe(v) .. ', not a boolean', 0) end
  return tostring(v)
end

local function number(v, where)
  if v == nil then return 'null' end
  if type(v) ~= 'number' then error('recorder: ' .. where .. ' is ' .. describe(v) .. ', not a number', 0) end
  return jsonNumber(v, where)
end

local function ref(v, where, playerAllowed)
  if v == nil then return 'null' end
  if numberOf[v] ~= nil then return tostring(numberOf[v]) end
  if playerAllowed and v == PLAYER then return '"Player"' end
  error('recorder: ' .. where .. ' is ' .. describe(v) .. ', not an object', 0)
end

local function list(v, where, item)
  if v == nil then return 'null' end
  if type(v) ~= 'table' or getmetatable(v) ~= nil then error('recorder: ' .. where .. ' is ' .. describe(v) .. ', not a list', 0) end
  local out = {}
  for i, x in ipairs(v) do out[i] = item(x, where .. '[' .. i .. ']') end
  return '[' .. concat(out, ',') .. ']'
end

local function point(p, where)
  if getmetatable(p) ~= zonePointMeta or p == INVALID then error('recorder: ' .. where .. ' is ' .. describe(p) .. ', not a ZonePoint', 0) end
  return '[' .. number(p.latitude, where .. '.latitude') .. ',' .. number(p.longitude, where .. '.longitude') .. ']'
end

local function facts(o, n)
  local t = o.obj
  local at = function(field) return 'object ' .. n .. ' (' .. o.maker .. ') ' .. field end
  local f = function(field) return rawget(t, field) end
  return concat({
    '{"kind":', jsonString(o.kind),
    ',"id":', text(f('Id'), at('Id')),
    ',"name":', text(f('Name'), at('Name')),
    ',"description":', text(f('Description'), at('Description')),
    ',"visible":', boolean(f('Visible'), at('Visible')),
    ',"active":', boolean(f('Active'), at('Active')),
    ',"points":', list(f('Points'), at('Points'), point),
    ',"container":', ref(f('Container'), at('Container'), true),
    ',"media":', ref(f('Media'), at('Media')),
    ',"icon":', ref(f('Icon'), at('Icon')),
    ',"inputType":', text(f('InputType'), at('InputType')),
    ',"choices":', list(f('Choices'), at('Choices'), text),
    ',"duration":', number(f('Duration'), at('Duration')),
    '}',
  })
end

-- ─── Run ────────────────────────────────────────────────────────────────────────────────────────

local chunk, loadError = loadfile(path)
if not chunk then
  stderr:write('recorder: cannot load ', path, ': ', tostring(loadError), '\n')
  exit(2)
end
local ran, runError = xpcall(chunk, traceback)
if not ran then
  stderr:write('recorder: the main chunk failed: ', tostring(runError), '\n')
  exit(3)
end
local made, result = xpcall(function()
  local out = {}
  for i, o in ipairs(objects) do out[i] = facts(o, i - 1) end
  return '[' .. concat(out, ',') .. ']'
end, function(e) return e end)
if not made then
  stderr:write(tostring(result), '\n')
  exit(3)
end
write(result, '\n')
