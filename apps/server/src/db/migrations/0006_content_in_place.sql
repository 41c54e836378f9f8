-- Team and organization content edited in place (decision 0008).
--
-- The menu now shows, to the people who run a space, how many suggested links wait in it,
-- so a suggestion made, accepted or declined changes their menu: link_suggestions bumps
-- the organization's menu version at commit like the other tables the menu reads (0003).
CREATE CONSTRAINT TRIGGER link_suggestions_menu_ins AFTER INSERT ON link_suggestions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (menu_change_first(NEW.organization_id))
  EXECUTE FUNCTION bump_menu_version_at_commit();
CREATE CONSTRAINT TRIGGER link_suggestions_menu_upd AFTER UPDATE ON link_suggestions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (menu_change_first(NEW.organization_id)
        OR (OLD.organization_id IS DISTINCT FROM NEW.organization_id
            AND menu_change_first(OLD.organization_id)))
  EXECUTE FUNCTION bump_menu_version_at_commit();
CREATE CONSTRAINT TRIGGER link_suggestions_menu_del AFTER DELETE ON link_suggestions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (menu_change_first(OLD.organization_id))
  EXECUTE FUNCTION bump_menu_version_at_commit();
