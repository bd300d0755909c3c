-- proj_clear_checkpoint: empty proj_checkpoint before a full rebuild from the log (warlog reproject).
-- parameters: none
-- output: none
DELETE FROM proj_checkpoint;
