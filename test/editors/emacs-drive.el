;;; emacs-drive.el --- Emacs with Eglot driving `umpire lsp --stdio', in batch -*- lexical-binding: t -*-
;; Debian's Emacs 28 and its elpa-eglot (1.9), set up as an umpire's init.el would be (docs/editors.md):
;; a `battle-mode' and an `eglot-server-programs' entry. Eglot shows no code lenses: the engagement is
;; resolved from its code-action menu (M-x eglot-code-actions), the odds asked for the same way. Run by
;; emacs.test.ts, which prepares the workspace and compares what is written here (JSON) with the CLI.

;; Debian's site start-up (not skipped: Emacs runs without -Q) puts elpa-eglot on the load path.
(require 'eglot)
(require 'json)
(require 'cl-lib)

(defun umpire-env (name)
  (or (getenv name) (error "%s is not set" name)))

(defvar umpire-workspace (file-name-as-directory (umpire-env "UMPIRE_WORKSPACE")))
(defvar umpire-published (make-hash-table :test 'equal) "Each file's first published diagnostics.")
(defvar umpire-messages nil "What the server showed the umpire (window/showMessage), newest first.")
(defvar umpire-result (list (cons 'steps nil)))

;; What an init.el holds: the mode, the server, no questions before the server's edits are applied.
(define-derived-mode battle-mode prog-mode "Battle")
(add-to-list 'auto-mode-alist '("\\.battle\\'" . battle-mode))
(add-to-list 'eglot-server-programs
             `(battle-mode . (,(umpire-env "UMPIRE_NODE") ,(umpire-env "UMPIRE_BIN") "lsp" "--stdio")))
(setq eglot-confirm-server-initiated-edits nil
      make-backup-files nil
      create-lockfiles nil)
;; The workspace folder is the project (it has no version control of its own).
(add-hook 'project-find-functions (lambda (_dir) (cons 'transient umpire-workspace)))

(cl-defmethod eglot-handle-notification :before
  (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
  (unless (gethash uri umpire-published) (puthash uri diagnostics umpire-published)))

(cl-defmethod eglot-handle-notification :before
  (_server (_method (eql window/showMessage)) &key _type message &allow-other-keys)
  (push message umpire-messages))

(defun umpire-wait (what condition &optional seconds)
  "Lets the server's messages in until CONDITION holds; fails naming WHAT after SECONDS (20)."
  (let ((deadline (+ (float-time) (or seconds 20))))
    (while (not (funcall condition))
      (when (> (float-time) deadline) (error "Timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

(defun umpire-step (name)
  (setcdr (assq 'steps umpire-result) (append (cdr (assq 'steps umpire-result)) (list name))))

(defvar umpire-severities ["error" "error" "warning" "info" "hint"])

(defun umpire-open (name)
  "Visits NAME of the workspace (managed by Eglot); its diagnostics as `umpire check' prints them."
  (find-file (expand-file-name name umpire-workspace))
  ;; M-x eglot in the first file (what `eglot-ensure' does once a command has run); later files join it.
  (unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
  (let ((uri (eglot--path-to-uri (buffer-file-name))))
    (umpire-wait (format "the diagnostics of %s" name) (lambda () (gethash uri umpire-published)))
    (cl-loop for d across (gethash uri umpire-published)
             for start = (plist-get (plist-get d :range) :start)
             collect (format "%s:%d:%d %s %s %s" name (1+ (plist-get start :line)) (1+ (plist-get start :character))
                             (aref umpire-severities (or (plist-get d :severity) 1)) (plist-get d :code) (plist-get d :message)))))

(defun umpire-code-action (title)
  "Runs the code action at point whose title starts with TITLE, as the umpire picks it from M-x eglot-code-actions."
  (cl-letf (((symbol-function 'completing-read)
             (lambda (_prompt menu &rest _)
               (or (car (cl-find-if (lambda (item) (string-prefix-p title (car item))) menu))
                   (error "No code action starts with %s among %S" title (mapcar #'car menu))))))
    ;; Asked from the keyboard: Eglot reads the menu with `completing-read'.
    (let ((last-nonmenu-event ?\r))
      (call-interactively #'eglot-code-actions))))

(defun umpire-run ()
  (let ((diagnostics nil))
    (dolist (name (split-string (umpire-env "UMPIRE_EXAMPLES") ","))
      (push (cons name (vconcat (umpire-open name))) diagnostics))
    (push (cons 'diagnostics (nreverse diagnostics)) umpire-result)
    (umpire-step "diagnostics")
    ;; Resolve from the code-action menu at the engagement's header, then save.
    (umpire-open "acted.battle")
    (goto-char (point-min))
    (search-forward "engagement Example")
    (umpire-code-action "Resolve 'Example'")
    (umpire-wait "the outcome written by the code action" (lambda () (save-excursion (goto-char (point-min)) (search-forward "outcome entered" nil t))))
    (save-buffer)
    (umpire-step "resolve")
    ;; Eglot has no Odds view: the odds come back as Markdown, in a message.
    (umpire-code-action "Show odds of 'Example'")
    (umpire-wait "the odds as a message" (lambda () (cl-some (lambda (m) (string-prefix-p "# Odds" m)) umpire-messages)))
    (push (cons 'odds (cl-find-if (lambda (m) (string-prefix-p "# Odds" m)) umpire-messages)) umpire-result)
    (umpire-step "odds")))

(condition-case err
    (umpire-run)
  (error (push (cons 'error (error-message-string err)) umpire-result)))
(push (cons 'messages (vconcat (reverse umpire-messages))) umpire-result)
(with-temp-file (umpire-env "UMPIRE_EMACS_RESULT") (insert (json-encode umpire-result)))
(let ((server (eglot-current-server)))
  (when server (ignore-errors (eglot-shutdown server))))
(kill-emacs 0)
;;; emacs-drive.el ends here
