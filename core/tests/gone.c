/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gone.c - a library the module-loading test removes (libcb_gone.so), and, built with
 * CB_GONE_MODULE, a module linked against it: loading that module without its library is
 * what the loader does on a host that lacks a backend's library. */
#ifdef CB_GONE_MODULE
int cb_gone_answer(void);
int cb_gone_use(void);
int cb_gone_use(void)
{
    return cb_gone_answer();
}
#else
int cb_gone_answer(void);
int cb_gone_answer(void)
{
    return 42;
}
#endif
