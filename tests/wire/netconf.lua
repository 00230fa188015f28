-- NETCONF over TCP for tshark (Wireshark has no NETCONF dissector):
-- RFC 6242's framing, end-of-message (section 4.3, "]]>]]>", before both
-- sides said base:1.1) and chunked (section 4.2, "\n#SIZE\n" chunks
-- ended by "\n##\n"), reassembled across TCP segments, each whole
-- message handed to the XML dissector.  A framing error is an expert
-- error (malformed), so that a decode of sbsim's sessions checks its
-- framer too.  Used as: tshark -X lua_script:netconf.lua
--   -d tcp.port==PORT,netconf
local p = Proto("netconf", "NETCONF (RFC 6242 framing)")
local f_chunk = ProtoField.uint32("netconf.chunk_size", "Chunk size")
local f_framing = ProtoField.string("netconf.framing", "Framing")
p.fields = { f_chunk, f_framing }
local e_bad = ProtoExpert.new("netconf.bad_framing", "Bad framing",
    expert.group.MALFORMED, expert.severity.ERROR)
p.experts = { e_bad }
local xml = Dissector.get("xml")
local EOM = "]]>]]>"
local MAX_CHUNK = 4294967295

-- The end of a chunked message starting at off: the offset after its
-- "\n##\n", the chunks' data as a ByteArray and their sizes; nil when
-- more bytes are needed; false and a reason when the framing is bad.
local function chunked(tvb, off)
	local len = tvb:len()
	local data = ByteArray.new()
	local sizes = {}
	while true do
		if len - off < 4 then return nil end
		if tvb:range(off, 2):string() ~= "\n#" then
			return false, "a chunk does not start with LF #"
		end
		if tvb:range(off + 2, 1):string() == "#" then
			if tvb:range(off + 3, 1):string() ~= "\n" then
				return false, "end-of-chunks without its LF"
			end
			if #sizes == 0 then
				return false, "end-of-chunks before any chunk"
			end
			return off + 4, data, sizes
		end
		local i, digits = off + 2, ""
		while true do
			if i >= len then return nil end
			local c = tvb:range(i, 1):string()
			if c == "\n" then break end
			if not c:match("%d") or #digits >= 10 then
				return false, "a chunk size that is not a number"
			end
			digits = digits .. c
			i = i + 1
		end
		local size = tonumber(digits)
		if #digits == 0 or digits:sub(1, 1) == "0" or size > MAX_CHUNK then
			return false, "chunk size '" .. digits .. "'"
		end
		if len - (i + 1) < size then return nil end
		data:append(tvb:range(i + 1, size):bytes())
		sizes[#sizes + 1] = size
		off = i + 1 + size
	end
end

local function eom(tvb, off)
	local s = tvb:range(off):string()
	local at = s:find(EOM, 1, true)
	if at == nil then return nil end
	return off + at - 1 + #EOM, tvb:range(off, at - 1):bytes()
end

function p.dissector(tvb, pinfo, tree)
	local off, len = 0, tvb:len()
	pinfo.cols.protocol = "NETCONF"
	while off < len do
		local start = off
		local stop, data, sizes
		local framing
		if len - off >= 2 and tvb:range(off, 2):string() == "\n#" then
			framing = "chunked"
			stop, data, sizes = chunked(tvb, off)
		else
			framing = "end-of-message"
			stop, data = eom(tvb, off)
		end
		if stop == nil then
			pinfo.desegment_offset = start
			pinfo.desegment_len = DESEGMENT_ONE_MORE_SEGMENT
			return len
		end
		local t = tree:add(p, tvb:range(start, (stop or len) - start))
		t:add(f_framing, framing)
		if stop == false then
			t:add_proto_expert_info(e_bad, data)
			return len
		end
		for _, n in ipairs(sizes or {}) do t:add(f_chunk, n) end
		if data:len() > 0 then
			xml:call(data:tvb("NETCONF message"), pinfo, t)
		end
		off = stop
	end
	return len
end

DissectorTable.get("tcp.port"):add_for_decode_as(p)
