/*
 * bulk-o-matic's test operations (sal-bulk-flow: flow-test,
 * read-flow-test, table-test, flow-rpc-add-test, flow-rpc-add-multiple,
 * register) and its FlowCounter MBean, read through Jolokia on the
 * RESTCONF port as the Performance_Bulkomatic suites read it.
 */
#ifndef SBSIM_OF_BULK_H
#define SBSIM_OF_BULK_H

struct http_server;

void	of_bulk_register(struct http_server *);

#endif
