-- hs_insert_glyphs: hs_glyphs rows (one list per column).
-- parameters: $game_id, $seat, $glyph, $rounds, $result, $system, $rules_version, $variant, $tournament, $played_on
-- output: none
INSERT INTO hs_glyphs (game_id, seat, glyph, rounds, result, system, rules_version, variant, tournament, played_on)
SELECT unnest($game_id::VARCHAR[]), unnest($seat::VARCHAR[]), unnest($glyph::VARCHAR[]), unnest($rounds::INTEGER[]), unnest($result::VARCHAR[]), unnest($system::VARCHAR[]), unnest($rules_version::VARCHAR[]), unnest($variant::VARCHAR[]), unnest($tournament::VARCHAR[]), unnest($played_on::DATE[]);
