-- lw_clear_attacks: empty lw_attacks (reproject).
-- parameters: none
-- output: none
DELETE FROM lw_attacks;
