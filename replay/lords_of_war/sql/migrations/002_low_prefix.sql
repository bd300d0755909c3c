-- 002_low_prefix: Lords of War's tables get a prefix of their own, low_ (issue 29; the core keeps proj_):
-- proj_players, proj_placements, proj_kills, proj_shots and proj_card_daily are renamed, rows kept, and a view
-- under each old name reads the new table, for one release (CHANGELOG: `warlog sql` queries of the old names keep
-- working until then; the next release drops the views).
-- MULTI-STATEMENT FILE: run as a whole, inside the migration's transaction, exactly once (system_migrations).
-- parameters: none
-- output: none
ALTER TABLE proj_players RENAME TO low_players;
ALTER TABLE proj_placements RENAME TO low_placements;
ALTER TABLE proj_kills RENAME TO low_kills;
ALTER TABLE proj_shots RENAME TO low_shots;
ALTER TABLE proj_card_daily RENAME TO low_card_daily;
CREATE VIEW proj_players AS SELECT * FROM low_players;
CREATE VIEW proj_placements AS SELECT * FROM low_placements;
CREATE VIEW proj_kills AS SELECT * FROM low_kills;
CREATE VIEW proj_shots AS SELECT * FROM low_shots;
CREATE VIEW proj_card_daily AS SELECT * FROM low_card_daily;
